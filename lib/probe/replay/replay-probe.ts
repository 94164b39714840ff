/**
 * Replays a case through the real probe: the case's bytes served over loopback HTTP at their
 * times (./replay-server.ts), measured by probeEndpoint exactly as a live endpoint would be.
 * Used by the cases test and `tokenpace replay`.
 */
import { probeEndpoint } from '../probe-endpoint';
import type { ProbeDeadlines, ProbeResult } from '../types';
import type { ReplayCase } from './case-file';
import { startReplayServer } from './replay-server';

/** Deadlines of a replay unless the case sets its own (`probe.deadlines`). */
export const REPLAY_DEADLINES: ProbeDeadlines = { ttftMs: 15_000, idleMs: 10_000, totalMs: 30_000, maxBytes: 4 * 1024 * 1024 };

/** The API key the replay sends (the replay server ignores it; results must never echo it). */
export const REPLAY_API_KEY = 'sk-test-secret';

/**
 * Serves `c` on 127.0.0.1 and probes it once. Returns the result and the replay server's largest
 * write lateness (ms; a loaded machine shows here). Never throws for the stream's failures.
 */
export async function replayCaseThroughProbe(c: ReplayCase): Promise<{ result: ProbeResult; serverLagMs: number }> {
  const server = await startReplayServer(c);
  try {
    const result = await probeEndpoint({
      protocol: c.protocol,
      url: server.url,
      model: String(c.request.model ?? 'test-model'),
      apiKey: REPLAY_API_KEY,
      prompt: 'Say hello.',
      maxOutputTokens: typeof c.request.max_tokens === 'number' ? c.request.max_tokens : 256,
      deadlines: { ...REPLAY_DEADLINES, ...c.probe?.deadlines },
      fetch: globalThis.fetch,
    });
    return { result, serverLagMs: server.maxWriteLagMs() };
  } finally {
    await server.close();
  }
}
