/**
 * Plausible delivery (decision 170): could this stream's timing come from generation? One model,
 * judged on rates and gaps relative to the stream's OWN statistics, never on event sizes or on an
 * absolute speed, because real servers batch legitimately: TensorRT-LLM's `stream_interval` sends
 * dozens of tokens per event at a steady rate, speculative decoding (EAGLE, Medusa, MTP) emits 2-4
 * tokens per step, and a busy client merges several events into one socket read.
 *
 * Terms. A *delivery* is one socket read: the timeline entries that share one arrival time
 * (events merged by the network or by our read loop are one delivery). t_0 … t_m are the deliveries'
 * times, k_j their o200k tokens; the *span* S = t_m − t_0; R = (Σ_{j≥1} k_j) ÷ S is the published
 * output speed; u_j = (t_j − t_{j−1}) ÷ k_j is delivery j's time per token (merging two deliveries
 * keeps u unchanged, which is why the rules use u and not raw gaps). The hold rule counts the
 * tokens after the first EVENT (k_0 then being only the first event's), as the published speed does.
 *
 * Rules:
 * - `whole_answer` (reason buffered_stream): most tokens in one event after the first (the last
 *   one, or one mid-stream: decision 307), or every token event at one instant. There is no pace
 *   to measure. The first event is not judged: its tokens are outside the published speed.
 * - `hold_then_burst` (reason implausible_delivery): the wait before the first token, less what
 *   prefilling the prompt can take, is more than HOLD_RATIO × the stream's own span (plus the
 *   HOLD_FLOOR_MS noise floor). A server that generates the answer during a hold and then releases
 *   it fast publishes R = N ÷ S while the request's duration only supports N ÷ (TTFT + S): the
 *   claim can exceed what the whole request proves by at most (1 + HOLD_RATIO + prefill share)×, and
 *   the hold shows as TTFT. The prefill allowance is inputTokens ÷ (PREFILL_DECODE_RATIO × R): a
 *   prompt token never costs more compute than a generated one (prefill processes the same FLOPs
 *   per token, in parallel), and engines prefill several times faster per token than they decode;
 *   reasoning the provider reports as generated but not streamed (decision 065) adds its tokens at
 *   the stream's own rate, credited only up to the request's budget ({@link creditedHiddenTokens},
 *   decision 307): the request's output limit less the visible output, since the limit bounds
 *   what a model may generate, hidden reasoning included (OpenAI max_completion_tokens, Anthropic
 *   max_tokens over thinking, Gemini maxOutputTokens over thoughts). 20,000 hidden tokens claimed
 *   with max_tokens 256 excused a 10 s hold before a burst.
 *   Judged from MIN_HOLD_TOKENS tokens after the first delivery. A hold INSIDE the span is not a rule: it lengthens S and can only lower the published speed.
 * - `clock_padding` (reason implausible_delivery): a first delivery followed by a gap far above the
 *   stream's own pace after it, so the TTFT clock stopped at a token that was not the start of the
 *   output: u_1 ≥ PADDING_RATIO × (token-weighted median of u_j, j ≥ 2), with the first gap
 *   longer than SHORT_STALL_MS (decision 312; it was a 25 ms noise floor). The real start of output
 *   (the second delivery) is kept in the evidence. Since decision 307 every early delivery j
 *   (starting within the first EARLY_TOKEN_SHARE of the tokens after the first delivery) is judged
 *   the same way on its time since the first delivery per token since it: (t_j − t_0) ÷ (k_1 + … +
 *   k_j) ≥ PADDING_RATIO × pace, with a stall t_j − t_0 − pace × (k_1 + … + k_j − 1) longer
 *   than SHORT_STALL_MS (decision 312; the first gap itself for j = 1 and one token). Two tokens
 *   5 ms apart and then a 1 s hold stopped the clock as well as one token does; an honest short
 *   stall (100 ms at token 5 of a 5 ms pace: 125 ms ÷ 5 tokens = 5× the pace) stays under, as
 *   generation that never stops does. A single short stall right after the first token (60 ms at a 5 ms pace: 12× the pace) is
 *   no pad either (decision 312): what a pad takes is milliseconds of TTFT, and the ratio alone
 *   already let any stream of a 12.5 ms pace or slower shave 100 ms (8 steps); an engine step
 *   delayed by another request's prefill (continuous batching) stalls a fast stream as long. The
 *   allowance is one budget from the first delivery, not one per stall: the stall of delivery j
 *   sums every early stall before it, so several short stalls in a row are judged as one long one.
 *   A pause followed by the tokens generated meanwhile in one delivery
 *   (u_1 at the stream's pace) is not padding: those tokens prove generation ran from the first
 *   token on (it is also what our own reader shows after a stall), only their delivery was late.
 *
 * Why an attacker cannot sit just under a rule: every bound is a ratio to the same stream's own
 * figures, so sitting under it means behaving like generation. Under `hold_then_burst` a hold is
 * at most HOLD_RATIO spans long, so holding buys at most that factor over the rate the whole
 * request proves, paid for in published TTFT; under `clock_padding` a pad can shave at most
 * max(PADDING_RATIO steps of the stream's own pace, 8/7 × SHORT_STALL_MS) off TTFT.
 *
 * A wait before the first token is judged only by the hold rule, on the stream's own span
 * (decision 312): one stream cannot tell a queue from a hold of generated tokens (2.5 s of queue,
 * then 256 tokens at 1,000 tok/s, is every delivery of a 100 tok/s server that generated the answer
 * in those 2.5 s and released it 10× faster), so a queue wait longer than the allowance is not
 * rankable on that run, and the rule's bound on the gain is kept.
 *
 * Sources: MLPerf Endpoints rules (2026) forbid padding "to stop the clock" and response caching;
 * Artificial Analysis' output speed is measured after the first chunk (the window these rules protect);
 * TensorRT-LLM `stream_interval`, vLLM/SGLang speculative decoding for the legitimate batching.
 */
import type { DeliveryEvidence, TimelineEntry } from './types';

/** Largest (TTFT − prefill allowance − floor) ÷ span a stream may show (hold then burst). */
export const HOLD_RATIO = 4;
/** Prefill allowance: inputTokens ÷ (this × the stream's own output speed). */
export const PREFILL_DECODE_RATIO = 4;
/** Holds within this many ms beyond HOLD_RATIO spans are timing noise, never a rule, ms. */
export const HOLD_FLOOR_MS = 25;
/**
 * Fewest tokens after the first delivery for the hold rule: a reply of a few tokens (a short
 * fidelity reply, "Short and clear answer.") has no span to speak of, and its TTFT is its latency.
 */
export const MIN_HOLD_TOKENS = 16;
/** Largest first-gap ÷ the stream's own pace after it (clock padding). */
export const PADDING_RATIO = 8;
/**
 * Early deliveries judged by clock_padding: those that start within this share of the tokens after
 * the first delivery (decision 307).
 */
export const EARLY_TOKEN_SHARE = 0.1;
/**
 * A single short stall (decision 312): an early delivery j whose stall, t_j − t_0 less the
 * stream's pace for each token after the first one since (the first gap itself for j = 1 and one
 * token; every early stall before j summed), is at most this many ms is never padding, whatever
 * its ratio to the stream's pace. Replaces the 25 ms noise floor (timer and scheduling noise),
 * which it covers. A pad it lets through shaves at most 8/7 of it off TTFT (≈ 114 ms: a ratio of
 * PADDING_RATIO leaves at most an eighth of t_j − t_0 to the pace), about what the PADDING_RATIO
 * allowance already gave a stream of a 12.5 ms pace (8 steps, 100 ms); ms.
 */
export const SHORT_STALL_MS = 100;

/**
 * The hidden reasoning tokens that may excuse a hold (decision 307): the claim, at most the
 * request's output budget less the visible output (`maxOutputTokens` − `visibleTokens`, never
 * below 0). An honest model cannot generate beyond its limit, so an honest claim is never cut;
 * `maxOutputTokens` null (unknown): the claim as it stands. Pure.
 */
export function creditedHiddenTokens(hiddenTokens: number, maxOutputTokens: number | null, visibleTokens: number): number {
  const claim = Math.max(0, hiddenTokens);
  if (maxOutputTokens === null) return claim;
  return Math.min(claim, Math.max(0, maxOutputTokens - Math.max(0, visibleTokens)));
}

/** What {@link judgeDelivery} found. */
export interface DeliveryVerdict {
  /** `whole_answer` → buffered_stream */
  wholeAnswer: boolean;
  /** `hold_then_burst` / `clock_padding` → implausible_delivery; null when the stream broke none */
  evidence: DeliveryEvidence | null;
  /** all ratios, also when no rule broke (for tests and the CLI) */
  figures: DeliveryEvidence;
}

interface Delivery {
  atMs: number;
  tokens: number;
}

/** Timeline entries with tokens merged by arrival time (one socket read = one delivery). */
export function groupDeliveries(timeline: readonly TimelineEntry[]): Delivery[] {
  const out: Delivery[] = [];
  for (const e of timeline) {
    if (e.tokens <= 0) continue;
    const last = out[out.length - 1];
    if (last && last.atMs === e.atMs) last.tokens += e.tokens;
    else out.push({ atMs: e.atMs, tokens: e.tokens });
  }
  return out;
}

/** Token-weighted median of values (each value counted `weight` times); null when empty. */
function weightedMedian(items: Array<{ value: number; weight: number }>): number | null {
  const sorted = items.filter((i) => i.weight > 0).sort((a, b) => a.value - b.value);
  const total = sorted.reduce((n, i) => n + i.weight, 0);
  if (total === 0) return null;
  let seen = 0;
  for (const i of sorted) {
    seen += i.weight;
    if (seen >= total / 2) return i.value;
  }
  return sorted[sorted.length - 1]!.value;
}

/**
 * Judges one stream's delivery. `timeline`: the probe's token events (ms since request start,
 * o200k tokens); `inputTokens`: the prompt's size in tokens (an estimate is fine; 0 when unknown,
 * which gives no prefill allowance); `hiddenTokens`: reasoning tokens the provider reports it
 * generated without streaming (decision 065), generated during the hold at the stream's own rate.
 * Pure; never throws.
 */
export function judgeDelivery(timeline: readonly TimelineEntry[], inputTokens = 0, hiddenTokens = 0): DeliveryVerdict {
  const eventTokens = timeline.reduce((n, t) => n + t.tokens, 0);
  const lastEvent = timeline[timeline.length - 1];
  // Any event after the first holding most tokens (decision 307: 30 % at pace, then 70 % in one
  // event mid-stream, then one more word, escaped a rule that looked only at the last event). The
  // first event is left out: its tokens are outside the published speed (a big first chunk is honest).
  const largestLater = timeline.slice(1).reduce((m, e) => Math.max(m, e.tokens), lastEvent?.tokens ?? 0);
  const wholeAnswer = eventTokens >= 2 && (largestLater > eventTokens / 2 || (timeline.length >= 2 && timeline[0]!.atMs === lastEvent!.atMs));

  const d = groupDeliveries(timeline);
  const figures: DeliveryEvidence = { rules: [], holdRatio: null, paddingRatio: null, secondDeliveryMs: d[1]?.atMs ?? null };
  if (d.length >= 2) {
    const spanMs = d[d.length - 1]!.atMs - d[0]!.atMs;
    // Tokens after the first EVENT, as the published speed counts them (build-probe-result): a hold
    // released as many events in one read, then a short tail, has few tokens after the first
    // delivery but is published at (almost all of its tokens) ÷ (the tail's span) (decision 176).
    const firstEventTokens = timeline.find((e) => e.tokens > 0)?.tokens ?? 0;
    const after = eventTokens - firstEventTokens;
    if (spanMs > 0 && after > 0) {
      const ratePerMs = after / spanMs;
      const prefillMs = Math.max(0, inputTokens) / (PREFILL_DECODE_RATIO * ratePerMs);
      const hiddenMs = Math.max(0, hiddenTokens) / ratePerMs;
      const holdMs = d[0]!.atMs - prefillMs - hiddenMs;
      figures.holdRatio = holdMs / spanMs;
      if (after >= MIN_HOLD_TOKENS && holdMs - HOLD_FLOOR_MS > HOLD_RATIO * spanMs) figures.rules.push('hold_then_burst');
    }
  }
  if (d.length >= 4) {
    const firstGap = d[1]!.atMs - d[0]!.atMs;
    const u1 = firstGap / d[1]!.tokens;
    const rest = d.slice(2).map((x, i) => ({ gap: x.atMs - d[i + 1]!.atMs, tokens: x.tokens }));
    const pace = weightedMedian(rest.map((r) => ({ value: r.gap / r.tokens, weight: r.tokens })));
    if (pace !== null && pace > 0) {
      // Every early delivery, not only the second (decision 307): a few tokens at pace, then a
      // hold, stopped the clock as well as one token does. Delivery j's time since the first
      // delivery per token since it, for the deliveries that start within the first
      // EARLY_TOKEN_SHARE of the tokens after the first delivery; j = 1 is the rule as it was.
      // Each early delivery is judged on its own (decision 312): the one with the largest ratio
      // may lie inside the short-stall allowance while a later one, past it, is still a pad
      // (100 ms after the first token, then another 60 ms: 155 ms of stalls, 16× the pace).
      const after = d.slice(1).reduce((n, x) => n + x.tokens, 0);
      let ratio = u1 / pace;
      let padded = false;
      let before = 0;
      for (let j = 1; j < d.length && before < EARLY_TOKEN_SHARE * after; j++) {
        const tokens = before + d[j]!.tokens;
        const sinceFirst = d[j]!.atMs - d[0]!.atMs;
        const r = sinceFirst / tokens / pace;
        ratio = Math.max(ratio, r);
        // the stall: the time since the first delivery less the pace steps of the tokens after
        // the first one since (a 100 ms stall, then tokens at pace, stays a 100 ms stall)
        const stallMs = sinceFirst - pace * (tokens - 1);
        if (r >= PADDING_RATIO && stallMs > SHORT_STALL_MS) padded = true;
        before = tokens;
      }
      figures.paddingRatio = ratio;
      if (padded) figures.rules.push('clock_padding');
    }
  }
  return { wholeAnswer, evidence: figures.rules.length > 0 ? figures : null, figures };
}
