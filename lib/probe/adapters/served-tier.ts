/**
 * The service tier a response says served it (decision 293): OpenAI Chat Completions chunks carry
 * `service_tier` at the top level, Responses its `response.service_tier`
 * (https://platform.openai.com/docs/api-reference/chat/object#chat/object-service_tier), Anthropic
 * Messages `usage.service_tier` (https://docs.anthropic.com/en/api/service-tiers). Pure.
 */

/** The longest tier name kept (a longer value is not a tier name). */
const MAX_TIER_CHARS = 40;

/** `value` when it is a plausible tier name (a non-empty string of at most 40 characters), else undefined. */
export function servedTierOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.trim();
  return v !== '' && v.length <= MAX_TIER_CHARS ? v : undefined;
}
