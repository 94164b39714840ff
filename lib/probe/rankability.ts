/**
 * Rankability of one measurement (decision 060): a measurement is ranked only when nothing it
 * observed contradicts the number it would publish. The reasons are the NOT_RANKABLE_REASONS
 * vocabulary of ./types.
 */
import { NOT_RANKABLE_REASONS, type NotRankableReason, type ProbeEvidence, type ProbeFlags, type ProbeResult } from './types';

/**
 * The reasons a probe result is not rankable, from its own outcome and flags, in
 * NOT_RANKABLE_REASONS order. `eventLoopStall` comes from the caller (the worker's loop-delay
 * monitor; the probe cannot see it).
 *
 * A count mismatch of a stream that withheld reasoning without counting it (evidence
 * `reasoningWithheld`, no `reasoningTokensReported`) is `hidden_reasoning_uncounted` instead of
 * `token_count_mismatch`: the gap has a known cause, yet the visible count cannot be recovered
 * (decision 065). With a reasoning count given, a remaining mismatch is a plain mismatch.
 */
export function listNotRankableReasons(
  result: { outcome: 'success' | 'error'; flags: ProbeFlags; evidence?: ProbeEvidence },
  extra: { eventLoopStall?: boolean } = {},
): NotRankableReason[] {
  const present = new Set<NotRankableReason>();
  if (result.outcome !== 'success') present.add('failed');
  if (result.flags.unrecognizedShape) present.add('unrecognized_shape');
  if (result.flags.tokenCountMismatch) {
    const uncounted = result.evidence?.reasoningWithheld === true && result.evidence.reasoningTokensReported === undefined;
    present.add(uncounted ? 'hidden_reasoning_uncounted' : 'token_count_mismatch');
  }
  if (result.flags.buffered) present.add('buffered_stream');
  if (result.evidence?.unknownFinishReason !== undefined) present.add('unknown_finish');
  if ((result.evidence?.sequenceIssues?.length ?? 0) > 0) present.add('sequence_broken');
  if (extra.eventLoopStall) present.add('event_loop_stall');
  // Decision 170 (./plausible-delivery.ts) and 171 (./plausible-output.ts).
  if ((result.evidence?.delivery?.rules.length ?? 0) > 0) present.add('implausible_delivery');
  if ((result.evidence?.degenerate?.length ?? 0) > 0) present.add('degenerate_output');
  return NOT_RANKABLE_REASONS.filter((r) => present.has(r));
}

/**
 * The same result with more reasons added (e.g. `event_loop_stall` from the worker), rankable
 * recomputed. Never removes a reason. Pure.
 */
export function withNotRankableReasons(result: ProbeResult, reasons: readonly NotRankableReason[]): ProbeResult {
  const present = new Set<NotRankableReason>([...result.notRankableReasons, ...reasons]);
  const notRankableReasons = NOT_RANKABLE_REASONS.filter((r) => present.has(r));
  return { ...result, notRankableReasons, rankable: notRankableReasons.length === 0 };
}
