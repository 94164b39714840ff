/**
 * Streams a gaming or broken provider sends (found by trying the CLI as an adversary, decision 303),
 * replayed over real loopback HTTP through the real probe: each must come out not rankable for the
 * right reason, or failed, never a ranked number. Beside each, the honest neighbour of the same kind
 * that must stay as it was (so a rule cannot pass by refusing everything).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { replayCaseThroughProbe } from './replay/replay-probe';
import type { ReplayCase } from './test-support/replay-case';
import { SSE_RESPONSE } from './test-support/case-wire';
import { warmUpProbeCore } from './warm-up';

const MODEL = 'tp-gamer';
const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-gaming', object: 'chat.completion.chunk', created: 1790000000, model: MODEL, choices, ...extra })}\n\n`;
const delta = (d: Record<string, unknown>, finish: string | null = null) => chunk([{ index: 0, delta: d, finish_reason: finish }]);

/** A chat stream: the role chunk at 20 ms, then one write per element of `bodies` every 5 ms, then [DONE]. */
function stream(id: string, bodies: string[], about: string): ReplayCase {
  const writes = [{ at_ms: 20, utf8: delta({ role: 'assistant', content: '' }) }, ...bodies.map((utf8, i) => ({ at_ms: 40 + i * 5, utf8 }))];
  writes.push({ at_ms: 45 + bodies.length * 5, utf8: 'data: [DONE]\n\n' });
  return {
    id,
    kind: 'gaming',
    protocol: 'openai-chat',
    about,
    source: 'Tokenpace adversary variant (decision 303)',
    request: { model: MODEL, stream: true },
    response: SSE_RESPONSE,
    writes,
    end: 'close',
    expect: {
      outcome: 'success',
      error_kind: null,
      answer_text: '',
      finish_reason: 'stop',
      content_chunks: 0,
      output_tokens_reported: null,
      ttft_ms: null,
      ttfat_ms: null,
      last_token_ms: null,
      e2e_ms: null,
    },
    tolerance_ms: 25,
  };
}

/**
 * A chat stream with its own write times (a recorded timeline, ms after the request): the role
 * chunk at 20 ms, then each `[at_ms, body]`, then the finish and [DONE] 5 and 10 ms after the last.
 */
function timed(id: string, writes: Array<[number, string]>, about: string): ReplayCase {
  const c = stream(id, [], about);
  const last = writes.at(-1)![0];
  c.writes = [
    { at_ms: 20, utf8: delta({ role: 'assistant', content: '' }) },
    ...writes.map(([at_ms, utf8]) => ({ at_ms, utf8 })),
    { at_ms: last + 5, utf8: delta({}, 'stop') },
    { at_ms: last + 10, utf8: 'data: [DONE]\n\n' },
  ];
  return c;
}

const WORDS = Array.from({ length: 60 }, (_, i) => ` ${['lamp', 'tide', 'stone', 'gull', 'rope', 'keeper'][i % 6]}${i}`);
const honest = () => [...WORDS.map((w) => delta({ content: w })), delta({}, 'stop')];

beforeAll(async () => {
  await warmUpProbeCore();
});

describe('a gaming provider gets no ranked number', () => {
  it('every chunk sent twice (same id, same payload, no usage): degenerate_output (repeated_events), the honest stream rankable', async () => {
    const doubled = [...WORDS.flatMap((w) => [delta({ content: w }), delta({ content: w })]), delta({}, 'stop')];
    const { result } = await replayCaseThroughProbe(stream('G01', doubled, 'each chunk twice'));
    expect(result.outcome).toBe('success');
    expect(result.evidence.degenerate).toContain('repeated_events');
    expect(result.rankable).toBe(false);
    const { result: ok } = await replayCaseThroughProbe(stream('G01b', honest(), 'honest'));
    expect(ok.evidence.degenerate).toBeUndefined();
    expect(ok.notRankableReasons.filter((r) => r !== 'timing_uncertain' && r !== 'implausible_delivery')).toEqual([]);
  });

  it('the same text as content and as reasoning_content in one delta is counted once and is an unrecognised shape', async () => {
    const both = [...WORDS.map((w) => delta({ content: w, reasoning_content: w })), delta({}, 'stop')];
    const { result } = await replayCaseThroughProbe(stream('G02', both, 'text in both fields'));
    expect(result.answerText).toBe(WORDS.join(''));
    expect(result.reasoningText).toBe('');
    expect(result.notRankableReasons).toContain('unrecognized_shape');
    // a reasoning model that thinks, then answers, in different words: both channels, nothing unrecognised
    const think = [delta({ reasoning_content: 'Think first.' }), ...WORDS.map((w) => delta({ content: w })), delta({}, 'stop')];
    const { result: ok } = await replayCaseThroughProbe(stream('G02b', think, 'reasoning then answer'));
    expect(ok.reasoningText).toBe('Think first.');
    expect(ok.notRankableReasons).not.toContain('unrecognized_shape');
  });

  it('text after finish_reason is sequence_broken; a resend of the whole answer after it is not new text', async () => {
    const after = [...WORDS.slice(0, 20).map((w) => delta({ content: w })), delta({}, 'stop'), ...WORDS.slice(20).map((w) => delta({ content: w }))];
    const { result } = await replayCaseThroughProbe(stream('G03', after, 'content after the finish'));
    expect(result.evidence.sequenceIssues).toContain('content after the finish');
    expect(result.notRankableReasons).toContain('sequence_broken');
    // the finish on the last content chunk itself (most servers): nothing after it
    const onLast = [...WORDS.slice(0, -1).map((w) => delta({ content: w })), delta({ content: WORDS.at(-1) }, 'stop')];
    const { result: ok } = await replayCaseThroughProbe(stream('G03b', onLast, 'finish on the last chunk'));
    expect(ok.evidence.sequenceIssues).toBeUndefined();
    expect(ok.answerText).toBe(WORDS.join(''));
    // a trailing whole-message resend after the finish: the same answer again, counted once, no issue
    const resend = [...honest(), delta({ content: WORDS.join('') })];
    const { result: again } = await replayCaseThroughProbe(stream('G03c', resend, 'whole answer resent after the finish'));
    expect(again.answerText).toBe(WORDS.join(''));
    expect(again.evidence.sequenceIssues).toBeUndefined();
  });

  it('a failure stated beside the choices (errors: [...], status: "failed") fails the probe; status "completed" does not', async () => {
    for (const [id, extra] of [
      ['G04', { errors: [{ message: 'generation aborted' }] }],
      ['G04b', { status: 'failed' }],
      ['G04c', { state: 'CANCELLED' }],
    ] as const) {
      const bodies = [...WORDS.slice(0, 30).map((w) => delta({ content: w })), chunk([], extra), delta({}, 'stop')];
      const { result } = await replayCaseThroughProbe(stream(id, bodies, 'failure beside the choices'));
      expect(result.outcome, id).toBe('error');
      expect(result.rankable, id).toBe(false);
    }
    const bodies = [...WORDS.map((w) => delta({ content: w })), chunk([], { status: 'completed' }), delta({}, 'stop')];
    const { result: ok } = await replayCaseThroughProbe(stream('G04d', bodies, 'status completed'));
    expect(ok.outcome).toBe('success');
  });

  it('a second choice with text (index 0 again, or index 1) is an unrecognised shape, never silently dropped', async () => {
    const two = [
      ...WORDS.map((w) =>
        chunk([
          { index: 0, delta: { content: w } },
          { index: 0, delta: { content: ' extra' } },
        ]),
      ),
      delta({}, 'stop'),
    ];
    const { result } = await replayCaseThroughProbe(stream('G05', two, 'two choices 0'));
    expect(result.notRankableReasons).toContain('unrecognized_shape');
    // a second choice at index 1 is the n > 1 shape the probe never asks for (n = 1): choice 0 is
    // read, and the other answer is unrecognised (decision 313); a bare index-1 chunk without text is not
    const n2 = [
      ...WORDS.map((w) =>
        chunk([
          { index: 0, delta: { content: w } },
          { index: 1, delta: { content: ' other' } },
        ]),
      ),
      delta({}, 'stop'),
    ];
    const { result: other } = await replayCaseThroughProbe(stream('G05b', n2, 'n = 2'));
    expect(other.answerText).toBe(WORDS.join(''));
    expect(other.notRankableReasons).toContain('unrecognized_shape');
    const bare = [
      ...WORDS.map((w) =>
        chunk([
          { index: 0, delta: { content: w } },
          { index: 1, delta: {} },
        ]),
      ),
      delta({}, 'stop'),
    ];
    const { result: ok } = await replayCaseThroughProbe(stream('G05c', bare, 'an empty index 1'));
    expect(ok.notRankableReasons).not.toContain('unrecognized_shape');
  });

  it('a cumulative stream in Chinese whose prefix chain breaks is degenerate, not a quadratic count', async () => {
    const text = '灯塔守在海边的岩石上每天夜里把光送向远方的船只老人独自住在塔里他记得每一艘经过的船和每一场风暴有一年冬天大雾连着下了七天';
    const pieces = Array.from({ length: 20 }, (_, k) => text.slice(0, (k + 1) * 3));
    pieces[pieces.length - 1] = `X${pieces.at(-1)}`;
    const { result } = await replayCaseThroughProbe(stream('G06', [...pieces.map((p) => delta({ content: p })), delta({}, 'stop')], 'cumulative, broken'));
    expect(result.rankable).toBe(false);
    expect(result.evidence.degenerate).toContain('repeated_ngrams');
  });

  it("the answer given twice across channels (reasoning, then the same words as content; each word again as the next delta's reasoning) is copied_spans; a reasoning model quoting one sentence of its reasoning is not", async () => {
    const copy = [...WORDS.map((w) => delta({ reasoning_content: w })), ...WORDS.map((w) => delta({ content: w })), delta({}, 'stop')];
    const { result } = await replayCaseThroughProbe(stream('G07', copy, 'reasoning then the same as content'));
    expect(result.evidence.degenerate).toContain('copied_spans');
    expect(result.rankable).toBe(false);
    const lag = [...WORDS.map((w, i) => delta(i > 0 ? { content: w, reasoning_content: WORDS[i - 1] } : { content: w })), delta({}, 'stop')];
    const { result: lagged } = await replayCaseThroughProbe(stream('G07b', lag, 'previous word as reasoning'));
    expect(lagged.evidence.degenerate).toContain('copied_spans');
    // honest: 40 words of reasoning, then an answer whose first 10 words quote it
    const thought = Array.from({ length: 40 }, (_, i) => ` idea${i}`);
    const quoting = [
      ...thought.map((w) => delta({ reasoning_content: w })),
      ...thought.slice(0, 10).map((w) => delta({ content: w })),
      ...WORDS.map((w) => delta({ content: w })),
      delta({}, 'stop'),
    ];
    const { result: ok } = await replayCaseThroughProbe(stream('G07c', quoting, 'answer quotes its reasoning'));
    expect(ok.evidence.degenerate).toBeUndefined();
    expect(ok.notRankableReasons.filter((r) => r !== 'timing_uncertain' && r !== 'implausible_delivery')).toEqual([]);
  });

  it('a sliding window (each event the previous 3 words plus 1 new) is overlapping_events; bursts of 1-4 new words are not', async () => {
    const slide = [...WORDS.map((_, i) => delta({ content: WORDS.slice(Math.max(0, i - 3), i + 1).join('') })), delta({}, 'stop')];
    const { result } = await replayCaseThroughProbe(stream('G08', slide, 'sliding window'));
    expect(result.evidence.degenerate).toContain('overlapping_events');
    expect(result.rankable).toBe(false);
    const bursts: string[] = [];
    for (let i = 0, n = 1; i < WORDS.length; i += n, n = (n % 4) + 1) bursts.push(delta({ content: WORDS.slice(i, i + n).join('') }));
    const { result: ok } = await replayCaseThroughProbe(stream('G08b', [...bursts, delta({}, 'stop')], 'speculative bursts'));
    expect(ok.evidence.degenerate).toBeUndefined();
    expect(ok.answerText).toBe(WORDS.join(''));
  });

  it('zero-width characters after every word are invisible_padding; the same words without them are not', async () => {
    const padded = [...WORDS.map((w) => delta({ content: `${w}\u200b\u200c\u200b\u200c` })), delta({}, 'stop')];
    const { result } = await replayCaseThroughProbe(stream('G09', padded, 'zero-width padding'));
    expect(result.evidence.degenerate).toContain('invisible_padding');
    expect(result.rankable).toBe(false);
    const { result: ok } = await replayCaseThroughProbe(stream('G09b', honest(), 'honest'));
    expect(ok.evidence.degenerate).toBeUndefined();
  });

  it('a short answer padded with whitespace events is mostly_symbols; the short answer alone stays a success', async () => {
    const padded = [delta({ content: 'OK' }), ...Array.from({ length: 60 }, () => delta({ content: ' \n ' })), delta({}, 'stop')];
    const { result } = await replayCaseThroughProbe(stream('G10', padded, 'OK and whitespace'));
    expect(result.evidence.degenerate).toContain('mostly_symbols');
    expect(result.rankable).toBe(false);
    const { result: ok } = await replayCaseThroughProbe(stream('G10b', [delta({ content: 'OK' }), delta({ content: '.' }), delta({}, 'stop')], 'OK'));
    expect(ok.outcome).toBe('success');
    expect(ok.evidence.degenerate).toBeUndefined();
  });

  it('30 % of the answer at pace, then 70 % in one mid-stream event, then one word: buffered_stream; a big first chunk then one word per event is not', async () => {
    const k = 18;
    const dump = [
      ...WORDS.slice(0, k).map((w) => delta({ content: w })),
      delta({ content: WORDS.slice(k, -1).join('') }),
      delta({ content: WORDS.at(-1) }),
      delta({}, 'stop'),
    ];
    const { result } = await replayCaseThroughProbe(stream('G11', dump, 'mid-stream dump'));
    expect(result.notRankableReasons).toContain('buffered_stream');
    const bigFirst = [delta({ content: WORDS.slice(0, 40).join('') }), ...WORDS.slice(40).map((w) => delta({ content: w })), delta({}, 'stop')];
    const { result: ok } = await replayCaseThroughProbe(stream('G11b', bigFirst, 'big first chunk'));
    expect(ok.notRankableReasons).not.toContain('buffered_stream');
  });
  it('random letters at pace (about one token per 2 letters) are token_dense; the same number of ordinary words are not', async () => {
    // a seeded generator: the same junk on every run (mulberry32)
    let seed = 0x5eed;
    const next = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const junkWord = () => Array.from({ length: 5 + Math.floor(next() * 4) }, () => 'bcdfghjklmnpqrstvwxzq'[Math.floor(next() * 21)]).join('');
    const junk = [...Array.from({ length: 80 }, () => delta({ content: ` ${junkWord()}` })), delta({}, 'stop')];
    const { result } = await replayCaseThroughProbe(stream('G12', junk, 'random consonants'));
    expect(result.outcome).toBe('success');
    expect(result.evidence.degenerate).toContain('token_dense');
    expect(result.rankable).toBe(false);
    const plain = Array.from({ length: 80 }, (_, i) => ` ${['the', 'keeper', 'walked', 'along', 'stone', 'harbour', 'wall', 'at', 'dusk', 'again'][i % 10]}`);
    const { result: ok } = await replayCaseThroughProbe(stream('G12b', [...plain.map((w) => delta({ content: w })), delta({}, 'stop')], 'ordinary words'));
    expect(ok.evidence.degenerate ?? []).not.toContain('token_dense');
  });

  describe('decision 312: a single short stall is no pad, a wait after the first token is not excused, a wait before it stays the hold rule’s', () => {
    /** Word i of WORDS at `at(i)` ms, one write each. */
    const words = (at: (i: number) => number) => WORDS.map((w, i): [number, string] => [at(i), delta({ content: w })]);
    const rules = (r: { evidence: { delivery?: { rules: string[] } } }) => r.evidence.delivery?.rules ?? [];

    it('honest: one word, a 60 ms stall (12× the 5 ms pace), then the rest at pace: no clock_padding', async () => {
      const { result, shapeLagMs } = await replayCaseThroughProbe(
        timed(
          'G13',
          words((i) => (i === 0 ? 40 : 100 + (i - 1) * 5)),
          'a 60 ms stall after the first token',
        ),
      );
      expect(result.outcome).toBe('success');
      // a write the replay server itself sent 40 ms late would make the stall a real 100+ ms one
      const label = JSON.stringify({ shapeLagMs, reasons: result.notRankableReasons, delivery: result.evidence.delivery });
      if (shapeLagMs < 20 && !result.notRankableReasons.includes('timing_uncertain')) {
        expect(rules(result), label).not.toContain('clock_padding');
        expect(result.notRankableReasons, label).toEqual([]);
      }
    });

    it('exploit: one word, then a 400 ms pad: clock_padding; two stalls of 100 ms in a row (each within the allowance, 195 ms together): clock_padding', async () => {
      const { result } = await replayCaseThroughProbe(
        timed(
          'G14',
          words((i) => (i === 0 ? 40 : 440 + (i - 1) * 5)),
          'a 400 ms pad after the first token',
        ),
      );
      expect(rules(result)).toContain('clock_padding');
      expect(result.rankable).toBe(false);
      const { result: two } = await replayCaseThroughProbe(
        timed(
          'G14b',
          words((i) => (i < 2 ? 40 + i * 100 : 240 + (i - 1) * 5)),
          'two 100 ms stalls',
        ),
      );
      expect(rules(two), JSON.stringify(two.evidence.delivery)).toContain('clock_padding');
      expect(two.rankable).toBe(false);
    });

    it('exploit: the first word at once, then a 2 s "queue" (the other words held) and a 1 ms burst: clock_padding; the held words in one write gain nothing', async () => {
      const { result } = await replayCaseThroughProbe(
        timed(
          'G15',
          words((i) => (i === 0 ? 40 : 2_040 + i)),
          'first word, 2 s, then a burst',
        ),
      );
      expect(rules(result)).toContain('clock_padding');
      expect(result.rankable).toBe(false);
      // one write of 50 words after the wait, then 9 at 10 ms: the wait is inside the span, and the
      // published speed is what the whole request proves (about 59 tokens ÷ 2.1 s), not the burst's
      const held = [
        [40, delta({ content: WORDS[0] })],
        [
          2_040,
          WORDS.slice(1, 51)
            .map((w) => delta({ content: w }))
            .join(''),
        ],
        ...WORDS.slice(51).map((w, i) => [2_050 + i * 10, delta({ content: w })]),
      ] as Array<[number, string]>;
      const { result: oneWrite } = await replayCaseThroughProbe(timed('G15b', held, 'first word, 2 s, the held words in one write'));
      expect(rules(oneWrite)).not.toContain('clock_padding');
      expect(oneWrite.outputTokensPerSecondO200k!).toBeLessThan(60);
    });

    it('a wait before the first word stays the hold rule’s: 2.5 s, then 60 words 1 ms apart, is hold_then_burst (a queue cannot be told from a held answer); 2.5 s then 15 ms apart is vouched for by its span', async () => {
      const { result } = await replayCaseThroughProbe(
        timed(
          'G16',
          words((i) => 2_500 + i),
          '2.5 s, then 1,000 tok/s',
        ),
      );
      expect(rules(result)).toContain('hold_then_burst');
      expect(result.rankable).toBe(false);
      const { result: ok, shapeLagMs } = await replayCaseThroughProbe(
        timed(
          'G16b',
          words((i) => 2_500 + i * 15),
          '2.5 s, then 67 tok/s',
        ),
      );
      if (shapeLagMs < 20) expect(rules(ok), JSON.stringify(ok.evidence.delivery)).not.toContain('hold_then_burst');
    });
  });
});
