/**
 * The verdict of GET /api/health from the figures the database holds: pg-boss queue depths, live
 * worker heartbeats and each region's probe schedule. Framework-free so every rule is tested with
 * fixed instants (workers/two-regions.test.ts drives it against real worker processes).
 *
 * A region is `stalled` (and the service `degraded`, naming it) when its schedule has not produced
 * probes (docs/decisions/250):
 * - `schedule-unclaimed`: a firing of its schedule has waited longer than `scheduleClaimGraceSeconds`
 *   without a worker of the region taking it (every worker of the region is gone: a region's
 *   firing is taken only by its own workers, and a live worker takes one within seconds);
 * - `schedule-not-firing`: the schedule has not fired for `missedFirings` slots of its cron (no
 *   process that runs schedules is up, or pg-boss's cron is stuck);
 * - `probes-lagging`: the region's probe queue holds a due job older than `probeQueueLagSeconds`
 *   (its workers cannot keep up, or died with jobs queued).
 * Healthchecks.io judges a check by "expected every period, plus a grace time"; these
 * rules are that idea applied to the schedule's own firings.
 */

/** A pg-boss queue's backlog (db/queries/operations.ts QueueFigures). */
export interface HealthQueueFigures {
  queue: string;
  queued: number;
  active: number;
  lagSeconds: number;
}

/** A region's probe schedule (ISO instants, waitingSeconds in s); db/queries/operations.ts RegionSchedule is this type. */
export interface HealthRegionSchedule {
  region: string;
  cron: string;
  lastFiredAt: string | null;
  lastCompletedAt: string | null;
  waitingSeconds: number;
  lastProbeJobAt: string | null;
  liveWorkers: number;
}

/** Why a region is stalled. */
export type RegionStallReason = 'schedule-unclaimed' | 'schedule-not-firing' | 'probes-lagging';

/** One region in the health body: its schedule figures, its state and, when stalled, why. */
export interface RegionHealth extends HealthRegionSchedule {
  state: 'ok' | 'stalled';
  reasons: RegionStallReason[];
  /** Lag of the oldest due job in the region's probe queue (s). */
  probeQueueLagSeconds: number;
}

/** Thresholds of the rules (seconds unless named otherwise). */
export interface HealthThresholds {
  scheduleClaimGraceSeconds: number;
  missedFirings: number;
  probeQueueLagSeconds: number;
}

/**
 * The published defaults: a firing unclaimed for 2 min (a live worker takes one within its 2 s poll
 * or at once by NOTIFY; 2 min leaves room for a worker busy starting up on a loaded machine); no
 * firing for 3 slots; a probe job due for 5 min (a whole probe may take 2 min, and an endpoint's
 * probes run one at a time).
 */
export const DEFAULT_HEALTH_THRESHOLDS: HealthThresholds = { scheduleClaimGraceSeconds: 120, missedFirings: 3, probeQueueLagSeconds: 300 };

/** The verdict: service status, the regions with their states, and the names of the stalled ones. */
export interface HealthVerdict {
  status: 'ok' | 'degraded';
  regions: RegionHealth[];
  stalledRegions: string[];
  /** Human-readable reasons for `degraded` (empty when ok). */
  problems: string[];
}

/**
 * Judges the figures at `now`. `slotMinutes(cron)` gives a schedule's slot length (lib/probe/cadence
 * slotMinutesForCron); `probeQueueName(region)` its probe queue (lib/queues.ts). No live
 * worker at all is `degraded` too (nothing probes, nothing rolls up), and so is no live worker of
 * the jobs role (`liveJobsWorkers` 0: rollups, precomputed answers and dumps stand still while
 * probes go on; decision 251).
 */
export function assessHealth(input: {
  now: Date;
  queues: HealthQueueFigures[];
  liveWorkers: number;
  liveJobsWorkers: number;
  schedules: HealthRegionSchedule[];
  slotMinutes: (cron: string) => number;
  probeQueueName: (region: string) => string;
  thresholds?: HealthThresholds;
}): HealthVerdict {
  const th = input.thresholds ?? DEFAULT_HEALTH_THRESHOLDS;
  const lagOf = new Map(input.queues.map((q) => [q.queue, q.lagSeconds]));
  const regions: RegionHealth[] = input.schedules.map((s) => {
    const reasons: RegionStallReason[] = [];
    if (s.waitingSeconds > th.scheduleClaimGraceSeconds) reasons.push('schedule-unclaimed');
    const firingGapMs = th.missedFirings * input.slotMinutes(s.cron) * 60_000;
    // Never fired: judged from the first firing on (a region scheduled this minute has not fired yet).
    if (s.lastFiredAt && input.now.getTime() - Date.parse(s.lastFiredAt) > firingGapMs && s.waitingSeconds === 0) reasons.push('schedule-not-firing');
    const probeQueueLagSeconds = lagOf.get(input.probeQueueName(s.region)) ?? 0;
    if (probeQueueLagSeconds > th.probeQueueLagSeconds) reasons.push('probes-lagging');
    return { ...s, probeQueueLagSeconds, state: reasons.length > 0 ? 'stalled' : 'ok', reasons };
  });
  // Probe queues of regions without a schedule row (made by an older version) still count.
  const scheduled = new Set(input.schedules.map((s) => input.probeQueueName(s.region)));
  const otherLagging = input.queues.filter(
    (q) => q.queue.startsWith(input.probeQueueName('')) && !scheduled.has(q.queue) && q.lagSeconds > th.probeQueueLagSeconds,
  );
  const stalledRegions = regions.filter((r) => r.state === 'stalled').map((r) => r.region);
  const problems = [
    ...(input.liveWorkers === 0 ? ['no live worker'] : input.liveJobsWorkers === 0 ? ['no live jobs worker: rollups, answers and dumps stand still'] : []),
    ...regions.filter((r) => r.state === 'stalled').map((r) => `region ${r.region}: ${r.reasons.join(', ')}`),
    ...otherLagging.map((q) => `queue ${q.queue}: oldest due job waited ${Math.round(q.lagSeconds)} s`),
  ];
  return { status: problems.length > 0 ? 'degraded' : 'ok', regions, stalledRegions, problems };
}
