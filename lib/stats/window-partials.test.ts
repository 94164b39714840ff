import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecodeArena, decodePartial, encodePartial, planPartials, PARTIAL_SPANS_MINUTES, type PartialSeries } from './window-partials';
import { SketchAccumulator } from './sketch';
import type { WindowPart } from './window-stats';
import { HOUR_MS as HOUR, MINUTE_MS as MIN } from './time-units';

describe('planPartials', () => {
  it('covers [from, to) exactly with aligned buckets, and a 72 h window at any instant needs at most ~25', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_000_000 }), fc.integer({ min: 0, max: 24 * 366 * 6 }), (startUnits, lenUnits) => {
        const from = (2_900_000 + startUnits) * 10 * MIN;
        const to = from + lenUnits * 10 * MIN;
        const plan = planPartials(from, to);
        let t = from;
        for (const b of plan) {
          expect(b.startMs).toBe(t);
          expect(b.startMs % (b.spanMinutes * MIN)).toBe(0);
          t += b.spanMinutes * MIN;
        }
        expect(t).toBe(to);
        // ≤ (ratio − 1) buckets of each span on each side, plus the largest span's run
        expect(plan.filter((b) => b.spanMinutes < 40320).length).toBeLessThanOrEqual(2 * (5 + 5 + 3 + 6 + 3));
        expect(plan.length).toBeLessThanOrEqual(2 * (5 + 5 + 3 + 6 + 3) + Math.ceil((to - from) / (40320 * MIN)));
      }),
      { numRuns: 500 },
    );
  });

  it('72 h ending at a random second: the hour-aligned start to the last 10-minute boundary is ≤ 30 buckets', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1_700_000_000, max: 1_900_000_000 }), (sec) => {
        const asOf = sec * 1000;
        const start = Math.floor(asOf / HOUR) * HOUR - 72 * HOUR;
        const edge = Math.floor(asOf / (10 * MIN)) * 10 * MIN;
        expect(planPartials(start, edge).length).toBeLessThanOrEqual(30);
      }),
      { numRuns: 1000 },
    );
  });

  it('an empty range is no bucket; unaligned or reversed ranges throw', () => {
    expect(planPartials(6 * HOUR, 6 * HOUR)).toEqual([]);
    expect(() => planPartials(6 * HOUR + 1, 7 * HOUR)).toThrow(RangeError);
    expect(() => planPartials(7 * HOUR, 6 * HOUR)).toThrow(RangeError);
    expect(PARTIAL_SPANS_MINUTES.every((s, i) => i === 0 || s % PARTIAL_SPANS_MINUTES[i - 1]! === 0)).toBe(true);
  });
});

function packed(keys: number[]) {
  const acc = new SketchAccumulator();
  for (const k of keys) acc.addIndex(k);
  return acc.drainPacked();
}

describe('encodePartial / decodePartial', () => {
  const arena = new DecodeArena();
  it('round-trips every field, including negative and far keys, zero buckets, null times and absent metrics', () => {
    const arbPart = fc.record({
      count: fc.nat(10_000),
      successes: fc.nat(10_000),
      notRankableTotal: fc.nat(100),
      fidelityChecks: fc.nat(100),
      fidelityPassed: fc.nat(100),
      last: fc.option(fc.integer({ min: 0, max: 4_000_000_000_000 })),
      kinds: fc.uniqueArray(fc.tuple(fc.constantFrom('timeout', 'rate_limited', 'http_error', 'é-ü'), fc.integer({ min: 1, max: 50 })), {
        selector: (x) => x[0],
      }),
      speed: fc.option(fc.array(fc.integer({ min: -40_000, max: 40_000 }), { minLength: 1, maxLength: 40 })),
      zeros: fc.nat(5),
    });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 100_000 }), arbPart), { maxLength: 6 }), (items) => {
        const series: PartialSeries[] = items.map(([endpointId, x]) => {
          const part: WindowPart = {
            count: x.count,
            successes: x.successes,
            notRankableTotal: x.notRankableTotal,
            fidelityChecks: x.fidelityChecks,
            fidelityPassed: x.fidelityPassed,
            lastMeasuredAtMs: x.last,
            errorKinds: x.kinds,
            notRankableByReason: x.kinds.map(([k, c]) => [`r:${k}`, c]),
            sketches: x.speed ? { outputTokensPerSecond: { ...packed(x.speed), zeros: x.zeros }, ttftMs: packed([1, 2, 3]) } : {},
          };
          return { endpointId, regions: ['eu-west', 'us-east'].slice(0, endpointId % 3), part };
        });
        const bytes = encodePartial(series);
        expect(decodePartial(bytes)).toEqual(series);
        arena.reset();
        expect(decodePartial(bytes, arena)).toEqual(series);
      }),
      { numRuns: 300 },
    );
  });

  it('an arena keeps every view of its decodes valid until reset, also when it grows', () => {
    const keys = Array.from({ length: 40_000 }, (_, i) => i * 3 - 20_000);
    const series: PartialSeries[] = [1, 2].map((endpointId) => ({
      endpointId,
      regions: [],
      part: {
        count: 40_000,
        successes: 40_000,
        errorKinds: [],
        lastMeasuredAtMs: 1,
        sketches: { ttftMs: packed(keys), e2eMs: packed(keys.slice(0, 7)) },
        notRankableTotal: 0,
        notRankableByReason: [],
        fidelityChecks: 0,
        fidelityPassed: 0,
      },
    }));
    const bytes = encodePartial(series);
    const small = new DecodeArena();
    // 3 × 80,007 keys: more than the arena's first 65,536, so it grows twice while earlier views live on.
    const decoded = [decodePartial(bytes, small), decodePartial(bytes, small), decodePartial(bytes, small)];
    for (const d of decoded) expect(d).toEqual(series);
  });

  it('refuses foreign, truncated and padded buffers', () => {
    const good = encodePartial([
      {
        endpointId: 3,
        regions: ['x'],
        part: { count: 1, successes: 1, errorKinds: [], lastMeasuredAtMs: 5, sketches: { ttftMs: packed([7]) }, notRankableTotal: 0, notRankableByReason: [] },
      },
    ]);
    expect(() => decodePartial(Uint8Array.of(1, 2, 3))).toThrow(RangeError);
    expect(() => decodePartial(good.subarray(0, good.length - 1))).toThrow(RangeError);
    expect(() => decodePartial(Uint8Array.from([...good, 0]))).toThrow(RangeError);
  });
});
