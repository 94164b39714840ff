/**
 * Replays a case through the real probe: the case's bytes served over loopback HTTP at their
 * times (./replay-server.ts), measured by probeEndpoint exactly as a live endpoint would be.
 * Used by the cases test and `tokenpace replay`.
 */
import { probeEndpoint } from '../probe-endpoint';
import type { ProbeDeadlines, ProbeResult, StructuredOutputRequest } from '../types';
import type { ReplayCase } from './case-file';
import { startReplayServer } from './replay-server';

/** Deadlines of a replay unless the case sets its own (`probe.deadlines`). */
export const REPLAY_DEADLINES: ProbeDeadlines = { ttftMs: 15_000, idleMs: 10_000, totalMs: 30_000, maxBytes: 4 * 1024 * 1024 };

/** The API key the replay sends (the replay server ignores it; results must never echo it). */
export const REPLAY_API_KEY = 'sk-test-secret';

/** The tool a replay declares for a case whose client declared tools (the replay server ignores the request body). */
const REPLAYED_TOOL: StructuredOutputRequest = {
  kind: 'tool_call',
  name: 'replayed_tool',
  description: 'The tool the recorded client declared.',
  schema: { type: 'object' },
};

/** True when the case's client declared tools: `tools` / `toolConfig` in its request, or tool calls in what it expects. */
export function caseDeclaresTools(c: ReplayCase): boolean {
  return c.request.tools !== undefined || c.request.toolConfig !== undefined || (c.expect.tool_calls?.length ?? 0) > 0;
}

/** One replay: the probe's result and what the replay server really did. */
export interface ReplayRun {
  result: ProbeResult;
  /** the replay server's largest write lateness against the case's at_ms, ms (a loaded machine shows here) */
  serverLagMs: number;
  /** largest lateness of a write against the case's gap after the write before it, ms: 0 when the stream kept the case's shape */
  shapeLagMs: number;
  /**
   * How much later than its at_ms each write went out, measured from the moment the probe was
   * called (at or before the probe's request start), ms, in case order: a probe time of a byte
   * from write k lies at or below at_ms(k) + writeLateMs[k] plus the probe's own read lateness.
   */
  writeLateMs: number[];
}

/**
 * Serves `c` on 127.0.0.1 and probes it once. Returns the result and what the replay server did
 * (ReplayRun). Never throws for the stream's failures.
 */
export async function replayCaseThroughProbe(c: ReplayCase): Promise<ReplayRun> {
  const server = await startReplayServer(c);
  try {
    const probeCalledAt = performance.now();
    const result = await probeEndpoint({
      protocol: c.protocol,
      url: server.url,
      model: String(c.request.model ?? 'test-model'),
      apiKey: REPLAY_API_KEY,
      prompt: 'Say hello.',
      maxOutputTokens: typeof c.request.max_tokens === 'number' ? c.request.max_tokens : 256,
      // A case whose client declared tools (its request lists them, or the model called one) is
      // replayed as a tool-call request: a tool call is only text the probe vouches for when asked (decision 318).
      output: caseDeclaresTools(c) ? REPLAYED_TOOL : null,
      deadlines: { ...REPLAY_DEADLINES, ...c.probe?.deadlines },
      fetch: globalThis.fetch,
    });
    const writeLateMs = server.writeTimes().map((at, k) => at - probeCalledAt - c.writes[k]!.at_ms);
    return { result, serverLagMs: server.maxWriteLagMs(), shapeLagMs: server.maxShapeLagMs(), writeLateMs };
  } finally {
    await server.close();
  }
}
