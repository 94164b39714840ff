/**
 * A ProbeTaskContext for task tests: the given database, a test worker id and version, the
 * SSRF-guarded fetch (loopback allowed only where the endpoint allows it) with every fetch it builds
 * kept in `fetches` (pass an array to collect them across contexts) so the test can close their pools, no secret key, a quiet event loop
 * (fixedLoopDelay(0)) and deadlines (ms) generous enough for a loaded machine. Override any field.
 */
import type { Db } from '@/db/client';
import { fixedLoopDelay } from '@/lib/probe/test-support/fixed-loop-delay';
import type { FetchLike } from '@/lib/probe/types';
import { createGuardedFetch } from '@/lib/security/ssrf-guard';
import type { ProbeTaskContext } from '../probe-endpoint';

export function probeTaskContext(db: Db, overrides: Partial<ProbeTaskContext> = {}, fetches: FetchLike[] = []): ProbeTaskContext & { fetches: FetchLike[] } {
  return {
    db,
    workerId: 'test-worker',
    workerVersion: 'test',
    createFetch: ({ allowPrivate }) => {
      const f = createGuardedFetch({ allowPrivate }) as unknown as FetchLike;
      fetches.push(f);
      return f;
    },
    secretKey: null,
    monitorLoopDelay: fixedLoopDelay(0),
    deadlines: { ttftMs: 10_000, idleMs: 10_000, totalMs: 30_000, maxBytes: 8 * 1024 * 1024 },
    now: () => new Date(),
    ...overrides,
    fetches,
  };
}

/** Closes the connection pools of the fetches a context built. */
export async function closeFetches(fetches: FetchLike[]): Promise<void> {
  for (const f of fetches) await (f as unknown as { dispatcher?: { close(): Promise<void> } }).dispatcher?.close();
}
