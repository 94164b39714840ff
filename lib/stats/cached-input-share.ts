/**
 * The cached share of one request's prompt (issue 25 item 3, decision 291): the input tokens the
 * provider served from its prompt cache ÷ the input tokens of the prompt, both as the provider
 * reported them (measurements.cached_input_tokens, measurements.input_tokens_reported; decisions
 * 260, 290). A fraction in [0, 1].
 *
 * Null when either count is unknown (never 0 by guess), when the prompt has 0 input tokens (no
 * share of nothing), and when the cached count exceeds the prompt (a report that contradicts
 * itself gives no share rather than one above 1). The database computes the same value for the
 * rollups, window partials and raw edges with db/queries/cached-input-share-sql, so every part of
 * a window holds the same per-measurement value. Pure.
 */

/** cachedInputTokens ÷ inputTokensReported, or null (see module doc). */
export function cachedInputShare(cachedInputTokens: number | null | undefined, inputTokensReported: number | null | undefined): number | null {
  if (cachedInputTokens === null || cachedInputTokens === undefined || inputTokensReported === null || inputTokensReported === undefined) return null;
  if (!(inputTokensReported > 0) || !(cachedInputTokens >= 0) || cachedInputTokens > inputTokensReported) return null;
  return cachedInputTokens / inputTokensReported;
}
