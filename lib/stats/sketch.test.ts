import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { percentiles } from './percentiles';
import { mulberry32, normalFrom } from './random';
import {
  SKETCH_RELATIVE_ACCURACY,
  addToSketch,
  createSketch,
  medianCiLowerRank,
  mergeSketch,
  mergeSketchJson,
  sketchIndex,
  sketchMedianCi,
  sketchOf,
  sketchOrderStatistic,
  sketchPercentiles,
  sketchSummary,
  sketchToJson,
  sketchValue,
  SketchAccumulator,
  packSketchJson,
  toSortedSketch,
} from './sketch';

const A = SKETCH_RELATIVE_ACCURACY;
const PS = [0, 5, 25, 50, 75, 95, 100];

describe('sketch buckets', () => {
  it('every value is within α of its bucket representative', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1e9, noNaN: true }), (x) => {
        const v = sketchValue(sketchIndex(x));
        expect(Math.abs(v - x)).toBeLessThanOrEqual(A * x * (1 + 1e-12));
      }),
    );
  });
  it('rejects non-positive and non-finite input to the index; zero bucket for ≤ 0 values', () => {
    expect(() => sketchIndex(0)).toThrow(RangeError);
    expect(() => sketchIndex(Number.NaN)).toThrow(RangeError);
    expect(() => addToSketch(createSketch(), Number.POSITIVE_INFINITY)).toThrow(RangeError);
    const s = sketchOf([0, -1, 5]);
    expect(s.zeros).toBe(2);
    expect(sketchPercentiles(s, [0, 50])).toEqual([0, 0]);
  });
});

describe('sketch quantiles', () => {
  it('type-7 percentiles are within α of the exact ones (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.5, max: 5000, noNaN: true }), { minLength: 1, maxLength: 300 }), (xs) => {
        const exact = percentiles(xs, PS);
        const est = sketchPercentiles(sketchOf(xs), PS)!;
        est.forEach((e, i) => expect(Math.abs(e - exact[i]!)).toBeLessThanOrEqual(A * exact[i]! * (1 + 1e-9)));
      }),
    );
  });
  it('hand case: [1,2,3,4] P25 ≈ 1.75 and counts are exact', () => {
    const s = sketchOf([4, 1, 3, 2]);
    expect(s.total).toBe(4);
    expect(sketchPercentiles(s, [25])![0]).toBeCloseTo(1.75, 1);
    expect(sketchOrderStatistic(s, 0)).toBeCloseTo(1, 1);
    expect(sketchSummary(createSketch())).toBeNull();
  });
  it('merging is exact: merge of parts equals sketch of the whole, also through JSON', () => {
    const g = normalFrom(mulberry32(7));
    const xs = Array.from({ length: 2000 }, () => Math.exp(6 + 0.3 * g()));
    const whole = sketchOf(xs);
    const viaJson = createSketch();
    const direct = createSketch();
    for (let i = 0; i < xs.length; i += 97) {
      const part = sketchOf(xs.slice(i, i + 97));
      mergeSketchJson(viaJson, JSON.parse(JSON.stringify(sketchToJson(part))));
      mergeSketch(direct, part);
    }
    expect(sketchToJson(viaJson)).toEqual(sketchToJson(whole));
    expect(sketchToJson(direct)).toEqual(sketchToJson(whole));
    expect(viaJson.total).toBe(2000);
  });
  it('ignores malformed JSON entries instead of producing NaN', () => {
    const s = mergeSketchJson(createSketch(), { '10': 2, x: 5, '11': -1, '12': 1.5, z: 1 } as Record<string, number>);
    expect(s.total).toBe(3);
    expect(s.zeros).toBe(1);
  });
});

describe('order-statistic median CI', () => {
  it('lower ranks match binomial tables (Conover, Table A3 / Hahn & Meeker)', () => {
    // n: l for 95 %: 6→1, 10→2, 20→6, 30→10, 50→18, 100→40
    expect(medianCiLowerRank(5)).toBe(1);
    expect(medianCiLowerRank(6)).toBe(1);
    expect(medianCiLowerRank(10)).toBe(2);
    expect(medianCiLowerRank(20)).toBe(6);
    expect(medianCiLowerRank(30)).toBe(10);
    expect(medianCiLowerRank(50)).toBe(18);
    expect(medianCiLowerRank(100)).toBe(40);
    // normal approximation continues smoothly past 1000
    expect(Math.abs(medianCiLowerRank(1001) - medianCiLowerRank(1000))).toBeLessThanOrEqual(2);
    expect(() => medianCiLowerRank(0)).toThrow(RangeError);
  });
  it('covers the true median about ≥ 95 % of the time (seeded simulation)', () => {
    const g = normalFrom(mulberry32(99));
    let covered = 0;
    const trials = 400;
    for (let k = 0; k < trials; k++) {
      const xs = Array.from({ length: 60 }, () => 500 + 50 * g());
      const ci = sketchMedianCi(sketchOf(xs))!;
      if (ci.low <= 500 && ci.high >= 500) covered++;
    }
    expect(covered / trials).toBeGreaterThan(0.93);
  });
  it('is deterministic, contains the median, and is null for an empty sketch', () => {
    const s = sketchOf([300, 301, 302, 303, 304, 305, 306, 307, 308, 309]);
    const ci = sketchMedianCi(s)!;
    const med = sketchPercentiles(s, [50])![0]!;
    expect(ci.low).toBeLessThanOrEqual(med);
    expect(ci.high).toBeGreaterThanOrEqual(med);
    expect(sketchMedianCi(s)).toEqual(ci);
    expect(sketchMedianCi(createSketch())).toBeNull();
  });
  it('contains the exact order-statistic interval of the raw values, also for large n (never zero-width)', () => {
    const g = normalFrom(mulberry32(11));
    const xs = Array.from({ length: 20_000 }, () => 1000 * Math.exp(0.05 * g()));
    const sorted = [...xs].sort((a, b) => a - b);
    const l = medianCiLowerRank(xs.length);
    const ci = sketchMedianCi(sketchOf(xs))!;
    expect(ci.low).toBeLessThanOrEqual(sorted[l - 1]!);
    expect(ci.high).toBeGreaterThanOrEqual(sorted[xs.length - l]!);
    expect(ci.high - ci.low).toBeGreaterThan(0);
    expect((ci.high - ci.low) / 1000).toBeLessThan(0.05);
  });
});

describe('SketchAccumulator', () => {
  it('merges packed sketches and raw values exactly like mergeSketch, and resets on drain', () => {
    const g = normalFrom(mulberry32(3));
    const parts = Array.from({ length: 20 }, () => Array.from({ length: 30 }, () => Math.exp(5 + g())));
    const acc = new SketchAccumulator();
    const ref = createSketch();
    for (const p of parts) {
      acc.addBins(packSketchJson(sketchToJson(sketchOf(p))).keys, packSketchJson(sketchToJson(sketchOf(p))).counts);
      mergeSketch(ref, sketchOf(p));
    }
    acc.addValue(1e30); // outside the dense range
    addToSketch(ref, 1e30);
    acc.addValue(0);
    addToSketch(ref, 0);
    const got = acc.drain();
    expect(sketchToJson(got)).toEqual(sketchToJson(ref));
    expect(got.total).toBe(602);
    expect(acc.drain().total).toBe(0);
    // drainSorted gives the same rank order as toSortedSketch(drain())
    for (const p of parts) acc.addBins(packSketchJson(sketchToJson(sketchOf(p))).keys, packSketchJson(sketchToJson(sketchOf(p))).counts);
    acc.addValue(0);
    const sorted = acc.drainSorted();
    const viaMap = toSortedSketch(
      mergeSketch(
        sketchOf([0]),
        parts.map(sketchOf).reduce((a, b) => mergeSketch(a, b), createSketch()),
      ),
    );
    expect(Array.from(sorted.values)).toEqual(Array.from(viaMap.values));
    expect(Array.from(sorted.upto)).toEqual(Array.from(viaMap.upto));
    expect(sketchSummary(sorted)).toEqual(sketchSummary(viaMap));
    expect(acc.drainSorted().total).toBe(0);
  });
  it('drainPercentiles reads a lower rank again after the previous level stepped past it', () => {
    // p0 reads ranks 0 and 1; p50 then needs rank 0 again (regression: it returned rank 1's value).
    const acc = new SketchAccumulator();
    acc.addValue(100);
    acc.addValue(200);
    const [p0, p50, p100] = acc.drainPercentiles([0, 50, 100])!;
    expect(p50).toBeCloseTo((p0! + p100!) / 2, 9);
    expect(p0).toBeLessThan(p50!);
    expect(p50).toBeLessThan(p100!);
  });

  it('drainPercentiles equals sketchPercentiles of the same counts (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 5000, noNaN: true }), { minLength: 0, maxLength: 200 }), (xs) => {
        const acc = new SketchAccumulator();
        for (const x of xs) acc.addValue(x);
        expect(acc.drainPercentiles([0, 5, 25, 50, 75, 95, 100])).toEqual(sketchPercentiles(sketchOf(xs), [0, 5, 25, 50, 75, 95, 100]));
      }),
    );
    expect(() => new SketchAccumulator().drainPercentiles([50, 5])).toThrow(RangeError);
  });
});
