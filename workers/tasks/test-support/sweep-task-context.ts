/**
 * A SweepTaskContext for sweep tests: the given database and endpoint lock, region and version
 * `test`, the SSRF-guarded fetch (loopback only where the endpoint allows it) with every fetch it
 * builds pushed to `fetches` (close them with closeGuardedFetches), no secret key, no warm-up and
 * deadlines (ms) generous enough for a loaded machine. `now` defaults to the wall clock.
 */
import type { Db } from '@/db/client';
import { createProbePool } from '@/lib/probe/probe-pool';
import { createGuardedFetch, type GuardedFetch } from '@/lib/security/ssrf-guard';
import type { EndpointLock } from '../../endpoint-lock';
import type { SweepTaskContext } from '../run-sweep';

export function sweepTaskContext(db: Db, endpointLock: EndpointLock, fetches: GuardedFetch[], now: () => Date = () => new Date()): SweepTaskContext {
  return {
    db,
    workerRegion: 'test',
    workerVersion: 'test',
    createFetch: ({ allowPrivate }) => {
      const f = createGuardedFetch({ allowPrivate });
      fetches.push(f);
      return f;
    },
    secretKey: null,
    deadlines: { ttftMs: 5000, idleMs: 5000, totalMs: 20_000, maxBytes: 1 << 24 },
    now,
    warmUpMs: 0,
    endpointLock,
  };
}

/** Closes the connection pools of the guarded fetches a sweep context built, and empties the list. */
export async function closeGuardedFetches(fetches: GuardedFetch[]): Promise<void> {
  for (const f of fetches) await f.dispatcher.close();
  fetches.length = 0;
}

/**
 * A sweep's probe pool at normal priority (nice 0), for tests about a sweep's bookkeeping and
 * stops: nice-10 threads (decision 166, tested in sweep-beside-probes) beside nice-0 work start and
 * run slowly, which made such tests depend on the machine's load.
 */
export const normalPriorityPool: NonNullable<SweepTaskContext['createPool']> = (o) => createProbePool({ ...o, niceness: 0 });
