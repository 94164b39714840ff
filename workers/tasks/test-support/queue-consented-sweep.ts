/**
 * The consent (owner and admin, by `userId`, with the given `maxConcurrency` and optional
 * `maxLevels`) and then one sweep request of `levels` for `durationMs` (ms) each: no warm-up,
 * 24 output tokens a stream, objectives TTFT 2000 ms, TPOT 100 ms, success rate 0.9. Returns the
 * sweep id; throws with the refusal reason if the request is not queued.
 */
import type { Db } from '@/db/client';
import { insertSweepRequest, upsertSweepSettings } from '@/db/queries/sweeps';

export async function queueConsentedSweep(
  db: Db,
  p: { endpointId: number; levels: number[]; durationMs: number; userId: string; maxConcurrency: number; maxLevels?: number },
): Promise<number> {
  await upsertSweepSettings(db, {
    endpointId: p.endpointId,
    enabled: true,
    maxConcurrency: p.maxConcurrency,
    durationMs: p.durationMs,
    ...(p.maxLevels === undefined ? {} : { maxLevels: p.maxLevels }),
    userId: p.userId,
    now: new Date(),
    adminConsent: true,
  });
  const q = await insertSweepRequest(db, {
    endpointId: p.endpointId,
    requestedByUserId: p.userId,
    concurrencyLevels: p.levels,
    durationMs: p.durationMs,
    warmUpMs: 0,
    maxOutputTokens: 24,
    objectiveTtftMs: 2000,
    objectiveTpotMs: 100,
    minSuccessRate: 0.9,
    now: new Date(),
  });
  if (!q.ok) throw new Error(`sweep not queued: ${q.reason}`);
  return q.sweep.id;
}
