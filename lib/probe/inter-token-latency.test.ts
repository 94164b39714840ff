import { describe, expect, it } from 'vitest';
import { computeInterTokenLatency } from './inter-token-latency';
import type { TimelineEntry } from './types';

const e = (atMs: number, tokens: number, channel: TimelineEntry['channel'] = 'answer'): TimelineEntry => ({ atMs, tokens, channel });

describe('computeInterTokenLatency', () => {
  it('divides each gap by the tokens of the later event (chunk-aware)', () => {
    // 100 ms first chunk (3 tokens), then 1 token after 20 ms, then 3 tokens after 60 ms: 20 ms/token throughout
    expect(computeInterTokenLatency([e(100, 3), e(120, 1), e(180, 3)])).toEqual({ p50Ms: 20, p95Ms: 20, meanMs: 20, maxMs: 20, tokens: 4 });
  });

  it('weights by tokens: one slow single-token gap among fast 4-token chunks is the tail, not the median', () => {
    const timeline = [e(0, 4)];
    for (let i = 1; i <= 20; i++) timeline.push(e(i * 40, 4)); // 10 ms/token, 80 tokens
    timeline.push(e(20 * 40 + 500, 1)); // 500 ms stall, 1 token
    const itl = computeInterTokenLatency(timeline);
    expect(itl.p50Ms).toBe(10);
    expect(itl.p95Ms).toBe(10); // 1 of 81 tokens is above p95
    expect(itl.maxMs).toBe(500);
    expect(itl.meanMs).toBeCloseTo((20 * 40 + 500) / 81, 9);
  });

  it('a stall worth more than 5 % of tokens shows in p95', () => {
    const timeline = [e(0, 1)];
    for (let i = 1; i <= 90; i++) timeline.push(e(i * 10, 1));
    for (let i = 1; i <= 10; i++) timeline.push(e(900 + i * 100, 1));
    const itl = computeInterTokenLatency(timeline);
    expect(itl.p50Ms).toBe(10);
    expect(itl.p95Ms).toBe(100);
  });

  it('mean equals 1000 / output speed after the first event', () => {
    const timeline = [e(150, 2), e(160, 3), e(171, 1), e(200, 5), e(260, 2)];
    const itl = computeInterTokenLatency(timeline);
    const tps = (3 + 1 + 5 + 2) / ((260 - 150) / 1000);
    expect(itl.meanMs).toBeCloseTo(1000 / tps, 9);
  });

  it('skips events without tokens and counts every channel; null with fewer than two token events', () => {
    expect(computeInterTokenLatency([e(10, 0), e(50, 1, 'reasoning'), e(55, 0), e(60, 1, 'answer')])).toMatchObject({ p50Ms: 10, tokens: 1 });
    expect(computeInterTokenLatency([e(10, 5)])).toEqual({ p50Ms: null, p95Ms: null, meanMs: null, maxMs: null, tokens: 0 });
    expect(computeInterTokenLatency([])).toMatchObject({ p50Ms: null });
  });
});
