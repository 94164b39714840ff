/**
 * How long a probe may take, and so how late its measurement may be written. One place, because
 * the worker's deadlines (workers/main.ts), the probe job's expiry and the rollup job's claim of
 * which measured time is complete (workers/tasks/rollup-measurements.ts) must agree.
 */
import type { ProbeDeadlines } from './types';

/** Deadlines of a scheduled probe (ms, bytes): TTFT, the longest gap between chunks, the whole stream, the body size. */
export const PROBE_DEADLINES: ProbeDeadlines = { ttftMs: 30_000, idleMs: 15_000, totalMs: 120_000, maxBytes: 8 * 1024 * 1024 };

/** pg-boss expiry of a probe job (s): a whole probe (totalMs) plus a minute for the prompt, the writes and the endpoint lock. */
export const PROBE_JOB_EXPIRE_SECONDS = PROBE_DEADLINES.totalMs / 1000 + 60;

/**
 * Longest time (ms) from a measurement's measured_at (its probe's start) to its commit: the probe
 * job's expiry, past which pg-boss hands the job to another worker. Measured time older than this
 * before a rollup run is complete: every measurement of it is written (a job that overran its
 * expiry is the stated limit; the run after its commit rebuilds its bucket, decision 319).
 */
export const MEASUREMENT_WRITE_LAG_MS = PROBE_JOB_EXPIRE_SECONDS * 1000;
