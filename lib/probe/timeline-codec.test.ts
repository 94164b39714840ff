import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeTimeline, encodeTimeline } from './timeline-codec';
import type { TimelineEntry, TokenChannel } from './types';

describe('timeline codec', () => {
  it('round-trips a small timeline exactly at 0.1 ms resolution', () => {
    const timeline: TimelineEntry[] = [
      { atMs: 1175.04, tokens: 1, channel: 'reasoning' },
      { atMs: 1196.3, tokens: 2, channel: 'reasoning' },
      { atMs: 1595.56, tokens: 1, channel: 'answer' },
      { atMs: 1612, tokens: 40, channel: 'tool' },
    ];
    expect(decodeTimeline(encodeTimeline(timeline))).toEqual([
      { atMs: 1175, tokens: 1, channel: 'reasoning' },
      { atMs: 1196.3, tokens: 2, channel: 'reasoning' },
      { atMs: 1595.6, tokens: 1, channel: 'answer' },
      { atMs: 1612, tokens: 40, channel: 'tool' },
    ]);
  });

  it('encodes an empty timeline in two bytes', () => {
    expect(encodeTimeline([]).length).toBe(2);
    expect(decodeTimeline(encodeTimeline([]))).toEqual([]);
  });

  it('fits a 1,000-event answer at 100 TPS (10 ms gaps with jitter) in 2 KB', () => {
    const timeline: TimelineEntry[] = [];
    let t = 350;
    for (let i = 0; i < 1000; i++) {
      timeline.push({ atMs: t, tokens: 1 + (i % 3 === 0 ? 1 : 0), channel: 'answer' });
      t += 10 + ((i * 7) % 5) / 2;
    }
    const encoded = encodeTimeline(timeline);
    expect(encoded.length).toBeLessThanOrEqual(2048);
    const decoded = decodeTimeline(encoded);
    decoded.forEach((d, i) => {
      expect(Math.abs(d.atMs - timeline[i]!.atMs)).toBeLessThanOrEqual(0.05 + 1e-9);
      expect(d.tokens).toBe(timeline[i]!.tokens);
    });
  });

  it('round-trips any non-decreasing timeline (property)', () => {
    const channel = fc.constantFrom<TokenChannel>('answer', 'reasoning', 'tool');
    const entry = fc.record({ gap: fc.integer({ min: 0, max: 5_000_000 }), tokens: fc.integer({ min: 0, max: 100_000 }), channel });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 200 }), (raw) => {
        let q = 0;
        const timeline = raw.map((r) => ({ atMs: (q += r.gap) / 10, tokens: r.tokens, channel: r.channel }));
        expect(decodeTimeline(encodeTimeline(timeline))).toEqual(timeline);
      }),
      { numRuns: 300 },
    );
  });

  it('rejects decreasing times, bad token counts and corrupt buffers', () => {
    expect(() =>
      encodeTimeline([
        { atMs: 5, tokens: 1, channel: 'answer' },
        { atMs: 4, tokens: 1, channel: 'answer' },
      ]),
    ).toThrow(RangeError);
    expect(() => encodeTimeline([{ atMs: 5, tokens: 1.5, channel: 'answer' }])).toThrow(RangeError);
    const good = encodeTimeline([{ atMs: 5, tokens: 1, channel: 'answer' }]);
    expect(() => decodeTimeline(good.subarray(0, good.length - 1))).toThrow(RangeError);
    expect(() => decodeTimeline(Buffer.from([9, 0]))).toThrow(RangeError);
  });
});
