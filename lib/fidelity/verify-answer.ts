/**
 * Verifies a streamed answer against a fidelity task's expected reply (./tasks.ts). Cheap and
 * deterministic: regular expressions, JSON.parse and one zod schema; no judge model.
 *
 * Tolerated, because they are formatting rather than fidelity: Markdown emphasis around the lines
 * (`**ANSWER:** 42`), thousands separators (`12,345`), a trailing period, lower-case codes, a code
 * fence around the JSON object, text after the required lines.
 */
import { z } from 'zod';
import { createJsonStringTracker } from '@/lib/probe/framing/json-string-tracker';
import type { FidelityExpected } from './tasks';

/**
 * Why a fidelity check failed (stable snake_case words, stored in `fidelity_detail.failures`):
 * - no_answer: no `ANSWER:` line (or no JSON object) in the reply
 * - wrong_answer: the result differs from the known one (or `checkId`/`sortedWords` differ)
 * - invalid_json: the reply's JSON object does not parse
 * - schema_mismatch: the JSON object does not validate against the schema
 * - nonce_missing: the access code is absent or wrong (a truncated or partly read prompt)
 */
export const FIDELITY_FAILURES = ['no_answer', 'wrong_answer', 'invalid_json', 'schema_mismatch', 'nonce_missing'] as const;
export type FidelityFailure = (typeof FIDELITY_FAILURES)[number];

/** Verdict of one fidelity check. */
export interface FidelityVerdict {
  passed: boolean;
  /** Empty when passed; otherwise every failure found, most basic first. */
  failures: FidelityFailure[];
  /** What was read from the reply (for evidence): the parsed answer and code, null when absent. */
  got: { answer: number | null; code: string | null };
}

/** Schema of the json_schema check's reply object (strict: no other fields). */
export const fidelityJsonReplySchema = z
  .object({
    checkId: z.string(),
    result: z.number().int(),
    code: z.string(),
    sortedWords: z.array(z.string()),
  })
  .strict();

const MARKDOWN = /[*_`]/g;

function readLine(text: string, label: 'ANSWER' | 'CODE'): string | null {
  const m = new RegExp(`(?:^|\\n)[\\s>#*_\`-]*${label}\\s*[*_]*\\s*:\\s*([^\\n]*)`, 'i').exec(text);
  return m ? m[1]!.replace(MARKDOWN, '').trim() : null;
}

function parseInteger(raw: string | null): number | null {
  if (raw === null) return null;
  const m = /^[\s$]*(-?[\d,\s]*\d)\s*\.?\s*$/.exec(raw) ?? /(-?\d[\d,]*)/.exec(raw);
  if (!m) return null;
  const n = Number(m[1]!.replace(/[,\s]/g, ''));
  return Number.isSafeInteger(n) ? n : null;
}

function normaliseCode(raw: string | null): string | null {
  if (raw === null) return null;
  const m = /[A-Za-z0-9]{4}\s*-\s*[A-Za-z0-9]{4}\s*-\s*[A-Za-z0-9]{4}/.exec(raw);
  return m ? m[0].replace(/\s/g, '').toUpperCase() : raw.trim().toUpperCase() || null;
}

/**
 * The first balanced `{...}` object in `text` (string-aware, so braces inside strings do not
 * count), or null when there is none. Text before and after it is ignored.
 */
export function extractFirstJsonObject(text: string): string | null {
  const start = text.indexOf('{');
  if (start < 0) return null;
  let depth = 0;
  const strings = createJsonStringTracker();
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    if (strings.insideString(ch)) continue;
    if (ch === '{') depth += 1;
    else if (ch === '}') {
      depth -= 1;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return null;
}

/**
 * Checks `answerText` (the streamed answer channel, not reasoning) against `expected`.
 * Never throws for any string input.
 */
export function verifyFidelityAnswer(expected: FidelityExpected, answerText: string): FidelityVerdict {
  if (expected.check === 'json_schema') return verifyJson(expected, answerText);
  const failures: FidelityFailure[] = [];
  let answer: number | null = null;
  if (expected.answer !== null) {
    const raw = readLine(answerText, 'ANSWER');
    answer = parseInteger(raw);
    if (raw === null) failures.push('no_answer');
    else if (answer !== expected.answer) failures.push('wrong_answer');
  }
  const code = normaliseCode(readLine(answerText, 'CODE'));
  if (code !== expected.code) failures.push('nonce_missing');
  return { passed: failures.length === 0, failures, got: { answer, code } };
}

function verifyJson(expected: FidelityExpected, answerText: string): FidelityVerdict {
  const raw = extractFirstJsonObject(answerText);
  if (raw === null) return { passed: false, failures: ['no_answer'], got: { answer: null, code: null } };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { passed: false, failures: ['invalid_json'], got: { answer: null, code: null } };
  }
  const loose = (value ?? {}) as { result?: unknown; code?: unknown };
  const got = {
    answer: typeof loose.result === 'number' ? loose.result : null,
    code: typeof loose.code === 'string' ? normaliseCode(loose.code) : null,
  };
  const parsed = fidelityJsonReplySchema.safeParse(value);
  if (!parsed.success) {
    const failures: FidelityFailure[] = ['schema_mismatch'];
    if (got.code !== expected.code) failures.push('nonce_missing');
    return { passed: false, failures, got };
  }
  const reply = parsed.data;
  const failures: FidelityFailure[] = [];
  const wordsMatch =
    expected.sortedWords !== null &&
    reply.sortedWords.length === expected.sortedWords.length &&
    reply.sortedWords.every((w, i) => w.trim().toLowerCase() === expected.sortedWords![i]);
  if (reply.result !== expected.answer || reply.checkId !== expected.checkId || !wordsMatch) failures.push('wrong_answer');
  if (got.code !== expected.code) failures.push('nonce_missing');
  return { passed: failures.length === 0, failures, got };
}
