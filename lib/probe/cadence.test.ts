import { describe, expect, it } from 'vitest';
import { describeDailyBudget, listDueWorkloadSlugs, OTHER_WORKLOAD_PERIOD_MINUTES } from './cadence';
import { HEADLINE_WORKLOAD_SLUG, WORKLOADS } from './workloads';

const DAY = Date.UTC(2026, 10, 30);
function countDay(endpoint: Parameters<typeof listDueWorkloadSlugs>[0], slotMinutes = 1) {
  const counts = new Map<string, number>();
  let maxPerSlot = 0;
  for (let m = 0; m < 1440; m += slotMinutes) {
    const due = listDueWorkloadSlugs(endpoint, new Date(DAY + m * 60_000), slotMinutes);
    maxPerSlot = Math.max(maxPerSlot, due.filter((s) => s !== HEADLINE_WORKLOAD_SLUG).length);
    for (const s of due) counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  return { counts, maxPerSlot };
}

describe('cadence', () => {
  it('headline every slot, every other fitting workload exactly 8 times a day, never two others in one slot', () => {
    for (const id of [1, 2, 3, 17, 99]) {
      const { counts, maxPerSlot } = countDay({ id, isCalibration: false, contextWindowTokens: 131_072 });
      expect(counts.get(HEADLINE_WORKLOAD_SLUG)).toBe(1440);
      for (const w of WORKLOADS.filter((x) => !x.headline)) expect(counts.get(w.slug), w.slug).toBe(1440 / OTHER_WORKLOAD_PERIOD_MINUTES);
      expect(maxPerSlot).toBe(1);
    }
  });

  it('no ~100k workloads without a declared window that holds them', () => {
    const { counts } = countDay({ id: 5, isCalibration: false, contextWindowTokens: null });
    expect([...counts.keys()].some((s) => s.endsWith('-100k'))).toBe(false);
    expect(counts.get('json-10k')).toBe(8);
    expect(countDay({ id: 5, isCalibration: false, contextWindowTokens: 32_768 }).counts.get('code-100k')).toBeUndefined();
  });

  it('a longer slot never skips a workload', () => {
    const { counts } = countDay({ id: 7, isCalibration: false, contextWindowTokens: 131_072 }, 5);
    for (const w of WORKLOADS.filter((x) => !x.headline)) expect(counts.get(w.slug), w.slug).toBe(8);
  });

  it('calibration endpoints run every workload every slot', () => {
    expect(listDueWorkloadSlugs({ id: 1, isCalibration: true, contextWindowTokens: 131_072 }, new Date(DAY + 7 * 60_000))).toEqual(
      WORKLOADS.map((w) => w.slug),
    );
  });

  it('endpoints are shifted against each other', () => {
    const first = (id: number) => {
      for (let m = 0; m < 180; m++)
        if (listDueWorkloadSlugs({ id, isCalibration: false, contextWindowTokens: null }, new Date(DAY + m * 60_000)).includes('prose-100')) return m;
      return -1;
    };
    expect(new Set([1, 2, 3, 4, 5, 6].map(first)).size).toBeGreaterThan(3);
  });

  it('daily budget', () => {
    expect(describeDailyBudget({ isCalibration: false, contextWindowTokens: null }, WORKLOADS)).toEqual({
      probesPerDay: 1440 + 11 * 8,
      inputTokensPerDay: 1440 * 1000 + 8 * (4 * 100 + 3 * 1000 + 4 * 10_000),
      outputTokensPerDay: (1440 + 88) * 256,
    });
    // with the families: 4 cold + 4 warm requests of ~2k tokens, 4 + 4 structured of ~1k a day,
    // one agent conversation (turns of 1,100, 1,656 and 2,212 tokens) and one cache-lifetime series (4 × 1,100)
    expect(describeDailyBudget({ isCalibration: false, contextWindowTokens: null })).toEqual({
      probesPerDay: 1440 + 11 * 8 + 16 + 3 + 4,
      inputTokensPerDay: 1440 * 1000 + 8 * (4 * 100 + 3 * 1000 + 4 * 10_000) + 8 * 2000 + 8 * 1000 + (1100 + 1656 + 2212) + 4 * 1100,
      outputTokensPerDay: (1440 + 88 + 16 + 7) * 256,
    });
  });

  it('agent turns: turn 1 once a day, the later turns never on their own; the cache-lifetime checks 2, 7 and 22 minutes after their seed', () => {
    for (const isCalibration of [false, true]) {
      const e = { id: 11, isCalibration, contextWindowTokens: null };
      const dueAt = (slug: string, slot = 1) => {
        const at: number[] = [];
        for (let m = 0; m < 1440; m += slot) if (listDueWorkloadSlugs(e, new Date(Date.UTC(2026, 11, 1, 0, m)), slot).includes(slug)) at.push(m);
        return at;
      };
      expect(dueAt('agent-turn-1').length).toBe(1);
      expect(dueAt('agent-turn-2')).toEqual([]);
      expect(dueAt('agent-turn-3')).toEqual([]);
      const [seed] = dueAt('cache-lifetime-seed');
      expect(seed).toBeDefined();
      // the gaps: 2, 5 and 15 minutes since the request before (mod a day)
      expect(dueAt('cache-lifetime-2m')).toEqual([(seed! + 2) % 1440]);
      expect(dueAt('cache-lifetime-5m')).toEqual([(seed! + 7) % 1440]);
      expect(dueAt('cache-lifetime-15m')).toEqual([(seed! + 22) % 1440]);
      // a 5-minute slot never skips a member
      for (const slug of ['agent-turn-1', 'cache-lifetime-seed', 'cache-lifetime-2m', 'cache-lifetime-5m', 'cache-lifetime-15m'])
        expect(dueAt(slug, 5).length, slug).toBe(1);
    }
  });

  it('the prompt-cache family: the cold member once per 360 minutes (calibration too), the warm one never on its own', () => {
    for (const isCalibration of [false, true]) {
      const e = { id: 7, isCalibration, contextWindowTokens: null };
      const due: string[][] = [];
      for (let m = 0; m < 1440; m++) due.push(listDueWorkloadSlugs(e, new Date(Date.UTC(2026, 11, 1, 0, m))));
      expect(due.filter((d) => d.includes('cache-cold-2k')).length).toBe(4);
      expect(due.some((d) => d.includes('cache-warm-2k'))).toBe(false);
      // a 5-minute slot never skips it
      const five: string[][] = [];
      for (let m = 0; m < 1440; m += 5) five.push(listDueWorkloadSlugs(e, new Date(Date.UTC(2026, 11, 1, 0, m)), 5));
      expect(five.filter((d) => d.includes('cache-cold-2k')).length).toBe(4);
    }
  });
});
