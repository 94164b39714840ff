/**
 * What a sweep job needs (workers/tasks/run-sweep.ts), on its own so workers/task.ts (the task
 * descriptor types) and the sweep task do not import each other (issue 28: no import cycles).
 */
import type { Db } from '@/db/client';
import type { createProbePool } from '@/lib/probe/probe-pool';
import type { FetchLike, ProbeDeadlines, ProbeRequest, ProbeResult } from '@/lib/probe/types';
import type { EndpointLock } from '../endpoint-lock';

/** The sweep task's dependencies: database, the guarded fetch factory, deadlines, the endpoint lock. */
export interface SweepTaskContext {
  db: Db;
  workerRegion: string;
  workerVersion: string;
  /** The SSRF-guarded fetch; allowPrivate only for endpoints that allow it. */
  createFetch: (opts: { allowPrivate: boolean }) => FetchLike;
  secretKey: Buffer | null;
  deadlines: ProbeDeadlines;
  now: () => Date;
  /** The probe (default probeEndpoint inside lib/sweep). */
  probe?: (req: ProbeRequest) => Promise<ProbeResult>;
  /** Minimum warm-up per level, ms (lib/sweep default when omitted). */
  warmUpMs?: number;
  /** Requests one sweep may send in all (default lib/sweep DEFAULT_MAX_SWEEP_REQUESTS). */
  maxRequests?: number;
  /** Builds the sweep's probe threads (default lib/probe createProbePool; tests wrap it to see where streams ran). */
  createPool?: typeof createProbePool;
  /** The worker's endpoint lock (workers/endpoint-lock.ts), held for the whole run of a sweep. */
  endpointLock: Pick<EndpointLock, 'runSweep'>;
  /**
   * Longest wait for the endpoint lock before the sweep starts (ms): a probe already streaming ends
   * within its deadline. Default `deadlines.totalMs` + 60 s (the probe job's expiry in workers/main.ts).
   */
  endpointLockWaitMs?: number;
}
