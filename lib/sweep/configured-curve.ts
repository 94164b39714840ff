/**
 * The true curve of a reference server with a capacity model (lib/reference-server): what a
 * correct sweep must measure at each concurrency N. Source: the server's own rules — each stream
 * streams at r(N) = min(peak, capacity ÷ N) after its first token, which arrives `ttftMs` after the
 * request; a closed-loop stream therefore spends ttft + (tokens − 1)/r per request producing
 * `tokens`, so the aggregate is N · tokens ÷ (ttft + (tokens − 1)/r) (request-turnaround gaps of
 * the client, ~1 ms, neglected).
 */
export interface ConfiguredCurvePoint {
  concurrency: number;
  /** TPS/user the server assigns, tokens/s */
  outputTokensPerSecond: number;
  /** expected aggregate output tokens/s of N closed-loop streams */
  aggregateOutputTokensPerSecond: number;
}

/**
 * Configured curve at the given levels. `capacityTps` null: no sharing (r = peak at every N).
 * Throws RangeError for non-positive peak/tokens or negative ttft.
 */
export function configuredCurve(
  levels: readonly number[],
  config: { tps: number; ttftMs: number; outputTokens: number; capacityTps: number | null },
): ConfiguredCurvePoint[] {
  if (!(config.tps > 0) || !(config.outputTokens >= 1) || !(config.ttftMs >= 0))
    throw new RangeError('tps and outputTokens must be positive, ttftMs non-negative');
  return levels.map((n) => {
    const r = config.capacityTps === null ? config.tps : Math.min(config.tps, config.capacityTps / n);
    const requestS = config.ttftMs / 1000 + (config.outputTokens - 1) / r;
    return { concurrency: n, outputTokensPerSecond: r, aggregateOutputTokensPerSecond: (n * config.outputTokens) / requestS };
  });
}
