import { describe, expect, it } from 'vitest';
import { bandPoints, endpointSpeedSeries } from './history-series';

describe('bandPoints', () => {
  it('gives each row its bucket start in epoch ms and the picked P25/P50/P75, null where the row has no figure', () => {
    const rows = [
      { bucketStart: '2026-11-30T10:00:00.000Z', speed: { p25: 90, p50: 100, p75: 110 } },
      { bucketStart: '2026-11-30T11:00:00.000Z', speed: null },
    ];
    expect(bandPoints(rows, (r) => r.speed)).toEqual([
      { t: Date.UTC(2026, 10, 30, 10), p25: 90, p50: 100, p75: 110 },
      { t: Date.UTC(2026, 10, 30, 11), p25: null, p50: null, p75: null },
    ]);
  });
});

describe('endpointSpeedSeries', () => {
  it('is one series keyed speed, labelled with the slug, in the first colour, with the band of the picked figure', () => {
    const rows = [{ bucketStart: '2026-11-30T10:00:00.000Z', speed: { p25: 90, p50: 100, p75: 110 } }];
    expect(endpointSpeedSeries('groq-llama-4-maverick', rows, (r) => r.speed)).toEqual([
      { key: 'speed', label: 'groq-llama-4-maverick', color: 'var(--s1)', points: [{ t: Date.UTC(2026, 10, 30, 10), p25: 90, p50: 100, p75: 110 }] },
    ]);
  });
});
