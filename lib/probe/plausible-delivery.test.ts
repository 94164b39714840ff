import { afterAll, describe, expect, it } from 'vitest';
import {
  EARLY_TOKEN_SHARE,
  HOLD_FLOOR_MS,
  HOLD_RATIO,
  MIN_HOLD_TOKENS,
  PADDING_RATIO,
  PREFILL_DECODE_RATIO,
  SHORT_STALL_MS,
  creditedHiddenTokens,
  judgeDelivery,
} from './plausible-delivery';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { probeEndpoint } from './probe-endpoint';
import type { ProbeRequest, TimelineEntry } from './types';
import { createGuardedFetch } from '../security/ssrf-guard';
import { REFERENCE_MODEL_ID, startReferenceServer } from '../reference-server/reference-server';
import { referenceWord } from '../reference-server/reference-words';

const entry = (atMs: number, tokens = 1): TimelineEntry => ({ atMs, tokens, channel: 'answer' });
/** `n` deliveries of `k` tokens, the first at `firstMs`, then one every `gapMs`. */
const steady = (firstMs: number, n: number, gapMs: number, k = 1) => Array.from({ length: n }, (_, i) => entry(firstMs + i * gapMs, k));
const rules = (t: TimelineEntry[], inputTokens = 0) => judgeDelivery(t, inputTokens).evidence?.rules ?? [];

describe('plausible delivery: streams real servers send stay plausible', () => {
  it('one token per event at 5,000 tok/s, 4 per event at 5,000 tok/s, TensorRT-LLM stream_interval 50 at 1,000 tok/s, speculative 1-4 per step', () => {
    expect(rules(steady(20, 1024, 0.2))).toEqual([]);
    expect(rules(steady(20, 256, 0.8, 4))).toEqual([]);
    // stream_interval: the first token alone at once, then 50 tokens every 50 ms (1,000 tok/s).
    expect(rules([entry(200), ...steady(250, 6, 50, 50)])).toEqual([]);
    // speculative decoding: a step every 4 ms accepting 1-4 draft tokens.
    const spec = Array.from({ length: 120 }, (_, i) => entry(150 + i * 4, 1 + ((i * 7) % 4)));
    expect(rules(spec)).toEqual([]);
    // a long prompt's prefill: 100k input tokens, 5 s TTFT, then 256 tokens at 1,000 tok/s.
    expect(rules(steady(5_000, 256, 1), 100_000)).toEqual([]);
    // whole-answer rules keep their meaning
    expect(judgeDelivery(steady(20, 500, 1)).wholeAnswer).toBe(false);
    expect(judgeDelivery([entry(100, 2), entry(101, 40)]).wholeAnswer).toBe(true);
    expect(judgeDelivery([entry(100, 3), entry(100, 4)]).wholeAnswer).toBe(true);
    expect(judgeDelivery([entry(100, 1)]).wholeAnswer).toBe(false);
  });

  it('a busy reader merging events into one read changes nothing: the rules use time per token', () => {
    // 5,000 tok/s, but our loop stalled 30 ms right after the first token: 150 tokens in one read.
    const merged = [entry(20), entry(50, 150), ...steady(50.2, 100, 0.2)];
    expect(rules(merged)).toEqual([]);
  });
});

describe('plausible delivery: the issue-20 table rows', () => {
  it('held 2 s, then 250 one-token events 0.5 ms apart: hold_then_burst (also with a 1k-token prompt allowance)', () => {
    const t = steady(2_003, 250, 0.5);
    expect(rules(t)).toEqual(['hold_then_burst']);
    expect(rules(t, 1_000)).toEqual(['hold_then_burst']);
    expect(judgeDelivery(t).figures.holdRatio).toBeGreaterThan(15);
  });
  it('63 tokens per event every 1 ms after generating them (256 tokens at 100 tok/s = 2.56 s): hold_then_burst', () => {
    expect(rules([...steady(2_560, 4, 1, 63), entry(2_564, 4)], 1_000)).toEqual(['hold_then_burst']);
    // the same when the reader merges the first four events into one read (a 4-token tail after it)
    expect(rules([...steady(2_560, 4, 0, 63), entry(2_561, 4)], 1_000)).toEqual(['hold_then_burst']);
  });
  it('a hold released as 240 events in one read, then a 15-token tail: hold_then_burst (the rule counts tokens as the published speed does)', () => {
    expect(rules([...steady(2_500, 240, 0), ...steady(2_510, 15, 10)], 1_000)).toEqual(['hold_then_burst']);
    // one 240-token event instead: the published speed counts only the tail, so no gain and no rule
    expect(rules([entry(2_500, 240), ...steady(2_510, 15, 10)], 1_000)).toEqual([]);
  });
  it('one word at once, a 1.5 s pause, then a stream at 100 tok/s: clock_padding, with the real start kept', () => {
    const t = [entry(1), ...steady(1_501, 255, 10)];
    const v = judgeDelivery(t);
    expect(v.evidence?.rules).toEqual(['clock_padding']);
    expect(v.evidence?.secondDeliveryMs).toBe(1_501);
  });
  it('one word, a 1.5 s pause, then the 150 tokens a 100 tok/s generation made meanwhile at once: not padding (generation ran from the first token)', () => {
    expect(rules([entry(1), entry(1_501, 150), ...steady(1_511, 100, 10)])).toEqual([]);
    // ... but fewer tokens than the pause at the stream's pace could make is padding again
    expect(rules([entry(1), entry(1_501, 18), ...steady(1_511, 100, 10)])).toEqual(['clock_padding']);
  });
});

describe('plausible delivery: every threshold just under, at and just over', () => {
  const S = 100; // span of 101 one-token deliveries 1 ms apart
  const withTtft = (ttft: number) => steady(ttft, 101, 1);
  it(`hold_then_burst: TTFT − prefill − ${HOLD_FLOOR_MS} ms must exceed ${HOLD_RATIO} × span`, () => {
    const edge = HOLD_RATIO * S + HOLD_FLOOR_MS;
    expect(rules(withTtft(edge - 1))).toEqual([]);
    expect(rules(withTtft(edge))).toEqual([]);
    expect(rules(withTtft(edge + 1))).toEqual(['hold_then_burst']);
    // the prefill allowance: inputTokens ÷ (4 × 1 tok/ms) = 250 ms for 1,000 input tokens
    const allowance = 1_000 / (PREFILL_DECODE_RATIO * 1);
    expect(rules(withTtft(edge + allowance - 1), 1_000)).toEqual([]);
    expect(rules(withTtft(edge + allowance + 1), 1_000)).toEqual(['hold_then_burst']);
    // a reply of fewer than MIN_HOLD_TOKENS tokens after the first has no span to judge
    expect(rules(steady(300, MIN_HOLD_TOKENS, 1))).toEqual([]);
    expect(rules(steady(300, MIN_HOLD_TOKENS + 1, 1))).toEqual(['hold_then_burst']);
  });
  it(`clock_padding: first gap per token ≥ ${PADDING_RATIO} × the pace after it, and > ${SHORT_STALL_MS} ms`, () => {
    // a 20 ms pace: 8 steps (160 ms) are past the short-stall allowance, so the ratio decides
    const padded = (gap: number, pace: number) => [entry(100), ...steady(100 + gap, 200, pace)];
    expect(rules(padded(PADDING_RATIO * 20 - 0.1, 20))).toEqual([]);
    expect(rules(padded(PADDING_RATIO * 20, 20))).toEqual(['clock_padding']);
    expect(rules(padded(PADDING_RATIO * 20 + 0.1, 20))).toEqual(['clock_padding']);
    // up to one short stall a first gap is never padding, whatever the ratio (decision 312)
    expect(rules(padded(SHORT_STALL_MS, 0.5))).toEqual([]);
    expect(judgeDelivery(padded(SHORT_STALL_MS, 0.5)).figures.paddingRatio).toBe(200);
    expect(rules(padded(SHORT_STALL_MS + 0.1, 0.5))).toEqual(['clock_padding']);
  });
});

describe('bulk delivery over real HTTP (guarded fetch, socket read stamps)', () => {
  const servers: Server[] = [];
  const closers: Array<() => Promise<void>> = [];
  const fetch = createGuardedFetch({ allowPrivate: true });
  afterAll(async () => {
    for (const s of servers) s.close();
    for (const c of closers) await c();
    await fetch.dispatcher.close();
  });
  const request = (url: string, maxOutputTokens: number): ProbeRequest => ({
    protocol: 'openai-chat',
    url,
    model: REFERENCE_MODEL_ID,
    apiKey: null,
    prompt: 'bulk',
    maxOutputTokens,
    deadlines: { ttftMs: 10_000, idleMs: 10_000, totalMs: 30_000, maxBytes: 16 * 1024 * 1024 },
    fetch,
  });

  it('a whole answer written as 3,000 SSE events in one write is not rankable (buffered_stream or hold_then_burst), whatever speed its reads suggest', async () => {
    // Varied words, so only the delivery rules can object (a repeated word is degenerate_output).
    const events = Array.from(
      { length: 3000 },
      (_, i) => `data: {"choices":[{"index":0,"delta":{"content":${JSON.stringify(referenceWord(i))}},"finish_reason":null}]}\n\n`,
    ).join('');
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        // The generation happened before the first byte (3 s at 1,000 tok/s): the answer leaves in one write.
        setTimeout(() => res.end(`${events}data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n`), 3_000);
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const r = await probeEndpoint(request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, 3000));
    expect(r.outcome).toBe('success');
    expect(r.outputTokensO200k).toBe(3000);
    expect(r.rankable).toBe(false);
    // One read: no span at all (buffered); a few TCP reads: 3 s of hold before a span of a few ms
    // (tens on a loaded machine), far over 4 spans (the 64-tokens-per-read rule it replaced caught it by size).
    if (r.flags.buffered) expect(r.notRankableReasons).toContain('buffered_stream');
    else
      expect(
        r.evidence.delivery?.rules.length,
        JSON.stringify({ reasons: r.notRankableReasons, ttft: r.ttftMs, last: r.lastTokenMs, chunks: r.contentChunks }),
      ).toBeGreaterThan(0);
  });

  // Right, or not rankable only for timing, never rankable and wrong (issue 28): the server shares
  // this machine, and loaded it may really send a different stream (a late first write, a catch-up
  // write); the truth is its own write log, judged by the same rules.
  it('a fast real stream (reference server, 5,000 TPS/user, 1 token per event) stays rankable unless the server really sent otherwise or the probe cannot vouch for its clock', async () => {
    const server = await startReferenceServer({ port: 0, tps: 5_000, ttftMs: 20, outputTokens: 1024, recordWrites: true });
    closers.push(() => server.close());
    const r = await probeEndpoint(request(server.url, 1024));
    expect(r.outcome).toBe('success');
    expect(r.tpotMs).not.toBeNull();
    const [record] = server.writeLog();
    const delivered = record!.writeAt.map((at, i) => entry(at - record!.openedAt, record!.writeTokens[i]));
    const warranted = judgeDelivery(delivered).evidence?.rules ?? [];
    const uncertain = r.notRankableReasons.includes('timing_uncertain');
    const reasons = r.notRankableReasons.filter((n) => n !== 'timing_uncertain');
    const label = JSON.stringify({ reasons: r.notRankableReasons, warranted, delivery: r.evidence.delivery, bound: r.timingBound });
    if (uncertain) {
      // stamps the probe does not vouch for may also misjudge the shape, only ever towards "not rankable"
      expect(
        reasons.filter((n) => n !== 'implausible_delivery' && n !== 'buffered_stream'),
        label,
      ).toEqual([]);
    } else {
      expect(r.flags.buffered, label).toBe(false);
      // the delivery rules fire exactly when the server's own writes warrant them
      expect(reasons, label).toEqual(warranted.length > 0 ? ['implausible_delivery'] : []);
    }
  });
});

describe('hidden reasoning excuses a hold only within the request budget (decision 307)', () => {
  it('the credit is the claim up to max tokens less the visible output; beyond it, the budget', () => {
    expect(creditedHiddenTokens(156, 256, 100)).toBe(156);
    expect(creditedHiddenTokens(157, 256, 100)).toBe(156);
    expect(creditedHiddenTokens(20_000, 256, 354)).toBe(0);
    expect(creditedHiddenTokens(20_000, null, 354)).toBe(20_000);
    expect(creditedHiddenTokens(-5, 256, 10)).toBe(0);
  });

  it('a 10 s hold excused by 20,000 hidden tokens claimed with max_tokens 256 is hold_then_burst; an honest reasoning model within its budget is not', () => {
    // 100 visible tokens, one per 1 ms after a 10 s hold: span 99 ms
    const burst = steady(10_000, 100, 1);
    expect(judgeDelivery(burst, 0, 20_000).evidence).toBeNull();
    expect(judgeDelivery(burst, 0, creditedHiddenTokens(20_000, 256, 100)).evidence?.rules).toEqual(['hold_then_burst']);
    // honest: 156 hidden tokens at the stream's own pace (~1 per ms) explain a 160 ms wait
    const honest = steady(160, 100, 1);
    expect(judgeDelivery(honest, 0, creditedHiddenTokens(156, 256, 100)).evidence).toBeNull();
  });
});

describe('decision 307: a mid-stream dump is a whole answer; every early delivery is judged for padding', () => {
  it('whole_answer: any event after the first holding more than half the tokens; exactly half, or a big first event, is not', () => {
    // 30 one-token events at 5 ms, one event of k tokens, one last token
    const dump = (k: number) => [...steady(100, 30, 5), entry(255, k), entry(260)];
    expect(judgeDelivery(dump(31)).wholeAnswer).toBe(false); // 31 of 62: exactly half
    expect(judgeDelivery(dump(32)).wholeAnswer).toBe(true); // 32 of 63
    // a big first chunk (its tokens are outside the published speed), then one token per event
    expect(judgeDelivery([entry(100, 200), ...steady(105, 100, 5)]).wholeAnswer).toBe(false);
  });

  it(`clock_padding on an early delivery: (t_j − t_0) ÷ tokens since ≥ ${PADDING_RATIO} × pace fails, just under passes`, () => {
    // two tokens 1 ms apart, a hold of x ms, then 200 tokens one per 20 ms: delivery 2 gives (1 + x) ÷ 2 ÷ 20
    // (a 20 ms pace puts the edge, 320 ms since the first token, past the short-stall allowance)
    const t = (x: number) => [entry(100), entry(101), entry(101 + x), ...steady(121 + x, 200, 20)];
    const edge = 2 * 20 * PADDING_RATIO - 1; // 319 ms: ratio exactly PADDING_RATIO
    expect(rules(t(edge - 0.5))).toEqual([]);
    expect(rules(t(edge))).toEqual(['clock_padding']);
    expect(judgeDelivery(t(edge)).figures.paddingRatio).toBeCloseTo(PADDING_RATIO, 6);
  });

  it(`only deliveries starting within the first ${EARLY_TOKEN_SHARE * 100} % of the tokens are judged; an honest short stall passes`, () => {
    // 100 tokens one per 5 ms; a 100 ms stall after token 5 (of a 5 ms pace): 125 ms ÷ 5 tokens = 5× pace
    const stall = [...steady(100, 5, 5), ...steady(220, 95, 5)];
    expect(rules(stall)).toEqual([]);
    // the same hold as the failing edge above, but after 11 of 100 tokens: a stall inside the span
    const late = [...steady(100, 12, 5), ...steady(100 + 11 * 5 + 200, 88, 5)];
    expect(rules(late)).toEqual([]);
    // and after 2 of 100 (inside the first 10 %): padding
    const early = [...steady(100, 3, 1), ...steady(102 + 200, 97, 5)];
    expect(rules(early)).toEqual(['clock_padding']);
  });
});

describe('decision 312: a single short stall is no pad; a wait before the first token stays the hold rule’s', () => {
  const published = (t: TimelineEntry[]) => (t.reduce((n, e) => n + e.tokens, 0) - t[0]!.tokens) / (t.at(-1)!.atMs - t[0]!.atMs); // tok/ms, as build-probe-result

  it('honest: a 60 ms stall right after the first token of a 5 ms pace (12× the pace) is not clock_padding', () => {
    const stall = [entry(200), ...steady(260, 200, 5)];
    expect(rules(stall)).toEqual([]);
    expect(judgeDelivery(stall).figures.paddingRatio).toBe(12); // the ratio alone refused it before
    // the same 60 ms after two tokens, and an engine stall of 60 ms on a 1 ms pace (60×)
    expect(rules([entry(200), entry(205), ...steady(265, 200, 5)])).toEqual([]);
    expect(rules([entry(200), ...steady(260, 500, 1)])).toEqual([]);
  });

  it(`edges: a first gap of exactly ${SHORT_STALL_MS} ms passes, 1 ms more is padding (5 ms pace)`, () => {
    expect(rules([entry(200), ...steady(200 + SHORT_STALL_MS, 200, 5)])).toEqual([]);
    expect(rules([entry(200), ...steady(200 + SHORT_STALL_MS + 1, 200, 5)])).toEqual(['clock_padding']);
    // after a second token at pace, the stall since it just inside and just outside the allowance
    expect(rules([entry(200), entry(205), ...steady(205 + SHORT_STALL_MS, 200, 5)])).toEqual([]);
    expect(rules([entry(200), entry(205), ...steady(205 + SHORT_STALL_MS + 1, 200, 5)])).toEqual(['clock_padding']);
    // the most a pad under the allowance can take: 8/7 of it, when the early delivery carries the
    // tokens the pace can fit in an eighth of the time (28 tokens at 0.5 ms in 113 ms: 8.07×, stall 99.5 ms)
    expect(rules([entry(0), entry(113, 28), ...steady(113.5, 300, 0.5)])).toEqual([]);
    expect(rules([entry(0), entry(SHORT_STALL_MS * (8 / 7) + 1, 28), ...steady(116, 300, 0.5)])).toEqual(['clock_padding']);
  });

  it('exploit: a long wait right after the first token (300 ms, 1.5 s) is still clock_padding', () => {
    expect(rules([entry(50), ...steady(350, 200, 5)])).toEqual(['clock_padding']);
    expect(rules([entry(50), ...steady(1_550, 200, 5)])).toEqual(['clock_padding']);
  });

  it('exploit: short stalls in a row are one budget (100 ms, then 60 ms: 160 ms since the first token; five of 50 ms)', () => {
    // delivery 1 sits exactly at the allowance (ratio 20), delivery 2 past it (a 155 ms stall; 160 ms ÷ 2 tokens = 16× the pace)
    const two = [entry(100), entry(200), ...steady(260, 200, 5)];
    expect(judgeDelivery(two).figures.paddingRatio).toBe(20);
    expect(rules(two)).toEqual(['clock_padding']);
    expect(rules([...steady(100, 6, 50), ...steady(355, 200, 5)])).toEqual(['clock_padding']);
  });

  it('exploit: the first token at once, every other token held and then burst, is clock_padding; released as one read it gains nothing', () => {
    // a 100 tok/s server: first token at 50 ms, the other 255 generated by 2,600 ms
    expect(rules([entry(50), ...steady(2_600, 255, 0.5)])).toEqual(['clock_padding']);
    // the same held tokens as one read, then a 15-token tail: the wait is inside the span, so the
    // published speed is below the server's own 0.1 tok/ms, and the gap per token is its pace
    const oneRead = [entry(50), entry(2_600, 240), ...steady(2_610, 15, 10)];
    expect(rules(oneRead)).toEqual([]);
    expect(published(oneRead)).toBeLessThan(0.1);
  });

  it('exploit: a queue wait faked after a first token (20 ms, then 2 s, then 1,000 tok/s) is clock_padding; with the tokens "generated meanwhile" in one read, the wait is paid in speed', () => {
    expect(rules([entry(20), ...steady(2_020, 256, 1)])).toEqual(['clock_padding']);
    const meanwhile = [entry(20), entry(2_020, 300), ...steady(2_021, 255, 1)];
    expect(rules(meanwhile)).toEqual([]);
    expect(published(meanwhile)).toBeLessThan(0.25); // 555 tokens over 2.25 s, not the 1 tok/ms pace
  });

  it('exploit: a short stall before a burst shaves at most the allowance, and the burst is judged on a span that holds the stall', () => {
    // first token at 50 ms, a 99 ms stall, then 255 tokens 0.05 ms apart: no rule, but the published
    // speed (255 ÷ 111.7 ms) is less than 1.5× what the whole request proves (256 tokens by 161.7 ms)
    const t = [entry(50), ...steady(149, 255, 0.05)];
    expect(rules(t)).toEqual([]);
    expect(published(t) / (256 / t.at(-1)!.atMs)).toBeLessThan(1.5);
  });

  it('a wait before the first token is still the hold rule’s: 2.5 s of queue, then 256 tokens at 1,000 tok/s, is the very timeline of a 100 tok/s server holding its answer and releasing it 10× faster', () => {
    // one stream cannot tell them apart: whatever excused the queue would excuse the hold
    const queued = steady(2_500, 256, 1);
    expect(rules(queued, 1_000)).toEqual(['hold_then_burst']);
    // a 40-token answer at 100 tok/s after a 2 s wait: the timeline of a 20 tok/s server bursting 5× its speed
    expect(rules(steady(2_000, 40, 10))).toEqual(['hold_then_burst']);
    // the same waits with spans that vouch for them (at most HOLD_RATIO spans) stay rankable
    expect(rules(steady(2_000, 40, 20))).toEqual([]);
    expect(rules(steady(1_000, 256, 1), 1_000)).toEqual([]);
  });
});
