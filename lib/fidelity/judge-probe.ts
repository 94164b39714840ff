/**
 * What a fidelity probe stores with its measurement: the check kind, the verdict, evidence and
 * the answer text capped at {@link ANSWER_TEXT_CAP_BYTES}. One function so the worker, the CLI and
 * tests store the same thing.
 */
import type { FidelityExpected } from './tasks';
import { verifyFidelityAnswer, type FidelityFailure } from './verify-answer';

/** Largest stored answer text, UTF-8 bytes (16 KB). */
export const ANSWER_TEXT_CAP_BYTES = 16 * 1024;

/**
 * `text` cut to at most `maxBytes` UTF-8 bytes at a character boundary (never a broken
 * character). Returns the text unchanged when it fits.
 */
export function capUtf8(text: string, maxBytes = ANSWER_TEXT_CAP_BYTES): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Step back over UTF-8 continuation bytes (10xxxxxx) so the cut lands before a character start.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end).toString('utf8');
}

/** Columns of a measurement that a fidelity probe fills (all null for an ordinary probe). */
export interface FidelityColumns {
  fidelityCheck: FidelityExpected['check'] | null;
  /** null when the probe failed (no complete answer to judge) or was not a fidelity probe */
  fidelityPassed: boolean | null;
  fidelityDetail:
    | { expected: FidelityExpected; got: { answer: number | null; code: string | null }; failures: FidelityFailure[] }
    | { expected: FidelityExpected; notJudged: string }
    | null;
  answerText: string | null;
}

/**
 * Judges one probe. `expected` null (an ordinary probe) → all null. A failed probe (outcome
 * `error`) keeps its partial answer but gets no verdict: its failure already counts against
 * uptime, and a cut-off answer says nothing about correctness.
 */
export function judgeFidelityProbe(expected: FidelityExpected | null, probe: { outcome: 'success' | 'error'; answerText: string }): FidelityColumns {
  if (!expected) return { fidelityCheck: null, fidelityPassed: null, fidelityDetail: null, answerText: null };
  const answerText = capUtf8(probe.answerText);
  if (probe.outcome !== 'success') {
    return { fidelityCheck: expected.check, fidelityPassed: null, fidelityDetail: { expected, notJudged: 'probe failed' }, answerText };
  }
  const verdict = verifyFidelityAnswer(expected, probe.answerText);
  return {
    fidelityCheck: expected.check,
    fidelityPassed: verdict.passed,
    fidelityDetail: { expected, got: verdict.got, failures: verdict.failures },
    answerText,
  };
}
