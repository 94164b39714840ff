import { describe, expect, it } from 'vitest';
import { slotMinutesForCron } from '@/lib/probe/cadence';
import { probeQueueName } from '@/lib/queues';
import { assessHealth, DEFAULT_HEALTH_THRESHOLDS, type HealthQueueFigures, type HealthRegionSchedule } from './health';

const NOW = new Date('2026-03-02T12:00:00.000Z');
const ago = (s: number) => new Date(NOW.getTime() - s * 1000).toISOString();

function region(name: string, over: Partial<HealthRegionSchedule> = {}): HealthRegionSchedule {
  return {
    region: name,
    cron: '* * * * *',
    lastFiredAt: ago(20),
    lastCompletedAt: ago(19),
    waitingSeconds: 0,
    lastProbeJobAt: ago(19),
    liveWorkers: 1,
    ...over,
  };
}

function judge(schedules: HealthRegionSchedule[], queues: HealthQueueFigures[] = [], liveWorkers = 2, liveJobsWorkers = 1) {
  return assessHealth({ now: NOW, queues, liveWorkers, liveJobsWorkers, schedules, slotMinutes: slotMinutesForCron, probeQueueName });
}

describe('assessHealth', () => {
  it('two regions that schedule and probe: ok', () => {
    const v = judge([region('eu'), region('us')]);
    expect(v).toMatchObject({ status: 'ok', stalledRegions: [], problems: [] });
    expect(v.regions.map((r) => r.state)).toEqual(['ok', 'ok']);
  });

  it('a firing unclaimed: ok at the grace, stalled just over it, naming only that region', () => {
    const grace = DEFAULT_HEALTH_THRESHOLDS.scheduleClaimGraceSeconds;
    expect(judge([region('eu', { waitingSeconds: grace - 1 }), region('us')]).status).toBe('ok');
    expect(judge([region('eu', { waitingSeconds: grace }), region('us')]).status).toBe('ok');
    const v = judge([region('eu', { waitingSeconds: grace + 0.5, liveWorkers: 0 }), region('us')]);
    expect(v).toMatchObject({ status: 'degraded', stalledRegions: ['eu'], problems: ['region eu: schedule-unclaimed'] });
    expect(v.regions.find((r) => r.region === 'us')).toMatchObject({ state: 'ok', reasons: [] });
  });

  it('a schedule that stopped firing: stalled after missedFirings slots of its own cron', () => {
    const gap = DEFAULT_HEALTH_THRESHOLDS.missedFirings * 60;
    expect(judge([region('eu', { lastFiredAt: ago(gap) })]).status).toBe('ok');
    expect(judge([region('eu', { lastFiredAt: ago(gap + 1) })])).toMatchObject({
      status: 'degraded',
      stalledRegions: ['eu'],
      problems: ['region eu: schedule-not-firing'],
    });
    // A 5-minute cron: the same gap is well inside three of its slots.
    expect(judge([region('eu', { cron: '*/5 * * * *', lastFiredAt: ago(gap + 1) })]).status).toBe('ok');
    expect(judge([region('eu', { cron: '*/5 * * * *', lastFiredAt: ago(15 * 60 + 1) })]).stalledRegions).toEqual(['eu']);
    // Never fired yet (scheduled this minute): not judged on firings.
    expect(judge([region('eu', { lastFiredAt: null })]).status).toBe('ok');
  });

  it('a region whose probe queue lags: stalled with probes-lagging; a lagging queue of an unscheduled region still degrades', () => {
    const lag = DEFAULT_HEALTH_THRESHOLDS.probeQueueLagSeconds;
    const queues = (s: number): HealthQueueFigures[] => [{ queue: probeQueueName('eu'), queued: 3, active: 1, lagSeconds: s }];
    expect(judge([region('eu')], queues(lag)).status).toBe('ok');
    expect(judge([region('eu')], queues(lag + 1))).toMatchObject({ status: 'degraded', stalledRegions: ['eu'], problems: ['region eu: probes-lagging'] });
    const v = judge([region('us')], queues(lag + 1));
    expect(v).toMatchObject({ status: 'degraded', stalledRegions: [], problems: [`queue probe-eu: oldest due job waited ${lag + 1} s`] });
    // Other queues (rollups) never count as probe queues.
    expect(judge([region('eu')], [{ queue: 'rollup-measurements', queued: 1, active: 0, lagSeconds: 10_000 }]).status).toBe('ok');
  });

  it('no live worker at all: degraded', () => {
    expect(judge([region('eu')], [], 0, 0)).toMatchObject({ status: 'degraded', problems: ['no live worker'] });
    expect(judge([], [], 0).status).toBe('degraded');
  });

  it('probe workers but no jobs worker: degraded (rollups and answers stand still)', () => {
    expect(judge([region('eu')], [], 1, 0)).toMatchObject({
      status: 'degraded',
      stalledRegions: [],
      problems: ['no live jobs worker: rollups, answers and dumps stand still'],
    });
    expect(judge([region('eu')], [], 2, 1).status).toBe('ok');
  });
});
