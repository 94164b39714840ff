import { describe, expect, it } from 'vitest';
import { mulberry32 } from './random';
import { createSketch, packSketchJson, sketchIndex, sketchOf, sketchToJson, SKETCH_VERSION, toSortedSketch, type PackedSketch } from './sketch';
import {
  exactWindowPercentiles,
  medianInterval,
  mergeWindowParts,
  PERCENTILE_LEVELS,
  RAW_SKIP,
  summarizeWindow,
  type RawRows,
  type WindowPart,
} from './window-stats';

function packed(values: number[]): PackedSketch {
  return packSketchJson(sketchToJson(sketchOf(values)));
}
function part(values: number[], extra: Partial<WindowPart> = {}): WindowPart {
  return {
    count: values.length,
    successes: values.length,
    errorKinds: [],
    lastMeasuredAtMs: null,
    sketches: { outputTokensPerSecond: packed(values), ttftMs: packed(values.map((v) => v / 2)) },
    notRankableTotal: 0,
    notRankableByReason: [],
    ...extra,
  };
}
function rawOf(values: number[], reasons: string[][] = []): RawRows {
  const idx = (vs: number[]) => Int32Array.from(vs, (v, j) => ((reasons[j] ?? []).length ? RAW_SKIP : sketchIndex(v)));
  return {
    endpointId: Int32Array.from(values, () => 1),
    region: values.map(() => 'r'),
    atMs: Float64Array.from(values, (_, j) => j),
    success: Uint8Array.from(values, () => 1),
    errorKind: values.map(() => null),
    reasons: values.map((_, j) => reasons[j] ?? []),
    bins: {
      outputTokensPerSecond: idx(values),
      outputTokensPerSecondO200k: Int32Array.from(values, () => RAW_SKIP),
      ttftMs: idx(values.map((v) => v / 2)),
      ttfatMs: Int32Array.from(values, () => RAW_SKIP),
      e2eMs: Int32Array.from(values, () => RAW_SKIP),
    },
  };
}

describe('window-statistics engine', () => {
  it('gives bit-identical figures however the window is cut into parts and raw rows', () => {
    const rand = mulberry32(3);
    for (let trial = 0; trial < 30; trial++) {
      const xs = Array.from({ length: 50 + Math.floor(rand() * 500) }, () => 50 + rand() * rand() * 1500);
      const whole = summarizeWindow([part(xs)], 'reported');
      const cuts = [Math.floor(rand() * xs.length), Math.floor(rand() * xs.length)].sort((a, b) => a - b);
      const [a, b, c] = [xs.slice(0, cuts[0]), xs.slice(cuts[0], cuts[1]), xs.slice(cuts[1])];
      const split = summarizeWindow(
        [part(a!), mergeWindowParts([part(b!)])],
        'reported',
        rawOf(c!),
        c!.map((_, j) => j),
      );
      expect(split.outputTokensPerSecond).toEqual(whole.outputTokensPerSecond);
      expect(split.ttftMs).toEqual(whole.ttftMs);
      expect(split.outputTokensPerSecondMedianCi).toEqual(whole.outputTokensPerSecondMedianCi);
      expect(split.samples).toBe(xs.length);
    }
  });

  it('publishes percentiles within 0.1 % (α = 0.05 %) of the exact type-7 values, and the sketch median interval', () => {
    const rand = mulberry32(11);
    for (let trial = 0; trial < 50; trial++) {
      const xs = Array.from({ length: 1 + Math.floor(rand() * 3000) }, () => Math.exp(rand() * 8));
      const w = summarizeWindow([part(xs)], 'reported');
      const exact = exactWindowPercentiles(xs)!;
      for (const p of PERCENTILE_LEVELS) {
        const k = `p${p}` as keyof typeof exact;
        expect(Math.abs(w.outputTokensPerSecond![k] - exact[k]) / exact[k]).toBeLessThanOrEqual(0.0005 + 1e-12);
      }
      expect(w.outputTokensPerSecondMedianCi).toEqual(medianInterval(toSortedSketch(sketchOf(xs)), w.outputTokensPerSecond!.p50));
    }
  });

  it('leaves not-rankable raw rows out of the figures and counts them by reason', () => {
    const xs = [100, 110, 120, 5000, 130];
    const w = summarizeWindow([], 'reported', rawOf(xs, [[], [], [], ['token_count_mismatch', 'unrecognized_shape'], []]), [0, 1, 2, 3, 4]);
    expect(w.n).toBe(5);
    expect(w.samples).toBe(4);
    expect(w.outputTokensPerSecond!.p95).toBeLessThan(131);
    expect(w.notRankable).toEqual({ total: 1, byReason: { token_count_mismatch: 1, unrecognized_shape: 1 } });
    const merged = mergeWindowParts([
      part([1], { notRankableTotal: 2, notRankableByReason: [['failed', 2]] }),
      part([2], { notRankableTotal: 1, notRankableByReason: [['failed', 1]] }),
    ]);
    expect([merged.notRankableTotal, merged.notRankableByReason]).toEqual([3, [['failed', 3]]]);
  });

  it('reads version-1 sketches (α = 1 %) re-keyed into current buckets at their old accuracy', () => {
    const g1 = 1.01 / 0.99;
    const old = createSketch();
    for (const v of [100, 200, 300]) old.bins.set(Math.ceil(Math.log(v) / Math.log(g1)), 1);
    const json = sketchToJson({ ...old, total: 3 });
    const p = packSketchJson(json, 1);
    expect(SKETCH_VERSION).toBe(2);
    expect(p.keys.length).toBe(3);
    const w = summarizeWindow([{ ...part([]), count: 3, successes: 3, sketches: { outputTokensPerSecond: p } }], 'reported');
    expect(Math.abs(w.outputTokensPerSecond!.p50 - 200) / 200).toBeLessThanOrEqual(0.0105);
    expect(() => packSketchJson(json, 9)).toThrow(RangeError);
  });
});
