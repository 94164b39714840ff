/**
 * Compares a probe result with a case's `expect` block (`tokenpace replay --expect`): every field
 * the block gives, exactly, except times, which may differ by the case's `tolerance_ms`.
 */
import type { ProbeResult } from '../types';
import type { ReplayCase } from './case-file';

/** One difference: the case field, what it expects and what the probe reported. */
export interface ExpectDifference {
  field: string;
  expected: unknown;
  actual: unknown;
}

/**
 * The differences between `r` and `c.expect` ([] when the result matches). Times compare within
 * `c.tolerance_ms`; a null time must be null. Optional extension fields compare only when present;
 * `unrecognized_paths` absent means none may be reported. Pure.
 *
 * `timing_uncertain` (decision 181) is the probe saying its clock cannot vouch for this run's
 * times: unless the case itself expects that reason, it is left out of `rankable` /
 * `not_rankable_reasons`, and a result carrying it has its time differences excused (a replay on a
 * busy machine is then right or not rankable for timing, never rankable and wrong). A result
 * WITHOUT it must hold every time within the tolerance.
 */
export function compareWithExpect(r: ProbeResult, c: ReplayCase): ExpectDifference[] {
  const e = c.expect;
  const out: ExpectDifference[] = [];
  const timingExpected = e.not_rankable_reasons?.includes('timing_uncertain') === true;
  const timingUncertain = r.notRankableReasons.includes('timing_uncertain') && !timingExpected;
  const reasons = timingUncertain ? r.notRankableReasons.filter((x) => x !== 'timing_uncertain') : r.notRankableReasons;
  const same = (field: string, expected: unknown, actual: unknown) => {
    if (JSON.stringify(expected) !== JSON.stringify(actual)) out.push({ field, expected, actual });
  };
  const time = (field: string, expected: number | null, actual: number | null) => {
    if (expected === null || actual === null) {
      if (expected !== actual) out.push({ field, expected, actual });
    } else if (Math.abs(actual - expected) > c.tolerance_ms && !timingUncertain) out.push({ field, expected, actual: Math.round(actual * 10) / 10 });
  };
  same('outcome', e.outcome, r.outcome);
  same('error_kind', e.error_kind, r.errorKind);
  same('answer_text', e.answer_text, r.answerText);
  same('reasoning_text', e.reasoning_text ?? '', r.reasoningText);
  same(
    'tool_calls',
    e.tool_calls ?? [],
    r.toolCalls.map((t) => ({ id: t.id, name: t.name, arguments: t.arguments })),
  );
  same('finish_reason', e.finish_reason, r.finishReason);
  same('content_chunks', e.content_chunks, r.contentChunks);
  same('output_tokens_reported', e.output_tokens_reported, r.outputTokensReported);
  if (e.reasoning_tokens_hidden !== undefined) same('reasoning_tokens_hidden', e.reasoning_tokens_hidden, r.reasoningTokensHidden);
  time('ttft_ms', e.ttft_ms, r.ttftMs);
  time('ttfat_ms', e.ttfat_ms, r.ttfatMs);
  time('last_token_ms', e.last_token_ms, r.lastTokenMs);
  time('e2e_ms', e.e2e_ms, r.e2eMs);
  if (e.http_status !== undefined) same('http_status', e.http_status, r.httpStatus);
  if (e.retry_after_ms !== undefined) same('retry_after_ms', e.retry_after_ms, r.retryAfterMs);
  if (e.token_count_mismatch !== undefined) same('token_count_mismatch', e.token_count_mismatch, r.flags.tokenCountMismatch);
  if (e.buffered !== undefined) same('buffered', e.buffered, r.flags.buffered);
  if (e.rankable !== undefined) same('rankable', e.rankable, reasons.length === 0);
  if (e.not_rankable_reasons !== undefined) same('not_rankable_reasons', e.not_rankable_reasons, reasons);
  for (const reason of e.not_rankable_reasons_include ?? [])
    if (!(r.notRankableReasons as readonly string[]).includes(reason)) same('not_rankable_reasons_include', reason, r.notRankableReasons);
  same('unrecognized_paths', e.unrecognized_paths ?? [], r.evidence.unrecognizedPaths ?? []);
  if (e.error_message_contains !== undefined && !(r.errorMessage ?? '').includes(e.error_message_contains)) {
    out.push({ field: 'error_message_contains', expected: e.error_message_contains, actual: r.errorMessage });
  }
  return out;
}
