/**
 * Fidelity tasks: checkable questions placed inside a probe's prompt, whose answers are verified
 * automatically and cheaply (no judge model, no network). One task kind per workload category:
 *
 * | category | check          | what the model must produce                                    |
 * |----------|----------------|----------------------------------------------------------------|
 * | math     | `arithmetic`   | `ANSWER: <integer>` for (a × b) − c with a known result          |
 * | code     | `code_output`  | `ANSWER: <integer>` = what a short Python snippet prints         |
 * | json     | `json_schema`  | one JSON object validating against a fixed schema, known values |
 * | prose    | `nonce_recall` | only the access code (below)                                    |
 *
 * Every fidelity prompt, whatever its category, also carries a per-probe access code in three
 * parts: part 1 right after the instruction, part 2 in the middle of the material, part 3 at its
 * end. The reply must quote `CODE: p1-p2-p3`. A provider that truncates the context (keeps only
 * the start, only the end, or drops the middle) cannot know all three parts, so the nonce check
 * also proves the whole prompt was read.
 *
 * Framework-free; deterministic per seed (same seed → same task, byte for byte).
 */
import { createHash } from 'node:crypto';

/** Workload category (same words as lib/probe/workloads). */
export type FidelityCategory = 'prose' | 'code' | 'math' | 'json';

/** The kind of check, stored in `measurements.fidelity_check`. */
/** The fidelity checks a probe can carry: the same words in the database (a CHECK), the API and the CLI. */
export const FIDELITY_CHECK_KINDS = ['arithmetic', 'code_output', 'json_schema', 'nonce_recall'] as const;
export type FidelityCheckKind = (typeof FIDELITY_CHECK_KINDS)[number];

/** Which check each category carries. */
export const FIDELITY_CHECK_BY_CATEGORY: Record<FidelityCategory, FidelityCheckKind> = {
  math: 'arithmetic',
  code: 'code_output',
  json: 'json_schema',
  prose: 'nonce_recall',
};

/** What a correct reply contains; kept with the measurement as evidence (`fidelity_detail.expected`). */
export interface FidelityExpected {
  check: FidelityCheckKind;
  /** The integer result (arithmetic, code_output, json_schema `result`); null for nonce_recall. */
  answer: number | null;
  /** The access code, three 4-character parts joined by hyphens, e.g. `K7QM-3XPA-Z9TR`. */
  code: string;
  /** json_schema only: the value the reply's `checkId` must carry. */
  checkId: string | null;
  /** json_schema only: the words the reply's `sortedWords` must list, in ascending order. */
  sortedWords: string[] | null;
}

/** A task as placed into a prompt: the three code notes and the closing check block. */
export interface FidelityTask {
  expected: FidelityExpected;
  /** Short instruction that opens the prompt (replaces the workload's usual instruction). */
  instruction: string;
  /** Notes carrying code parts 1, 2 and 3 (one line each, formatted for the category's material). */
  notes: [string, string, string];
  /** The question and reply format; closes the prompt. */
  checkBlock: string;
}

/** Alphabet of code parts: no 0/O/1/I, so a correct reply cannot be misread. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const WORD_POOL = [
  'amber',
  'bridge',
  'cedar',
  'delta',
  'ember',
  'falcon',
  'garnet',
  'harbor',
  'iris',
  'juniper',
  'kestrel',
  'lantern',
  'meadow',
  'nickel',
  'orchid',
  'pepper',
  'quartz',
  'raven',
  'saffron',
  'timber',
  'umber',
  'violet',
  'willow',
  'yarrow',
  'zephyr',
];

/** Bytes from SHA-256 of the seed, extended by counter; a small deterministic stream. */
function createByteStream(seed: string): () => number {
  let block = 0;
  let buf = createHash('sha256').update(`${seed}\u0000${block}`).digest();
  let i = 0;
  return () => {
    if (i >= buf.length) {
      block += 1;
      buf = createHash('sha256').update(`${seed}\u0000${block}`).digest();
      i = 0;
    }
    return buf[i++]!;
  };
}

function int(next: () => number, lo: number, hi: number): number {
  const x = (next() << 8) | next();
  return lo + (x % (hi - lo + 1));
}

function codePart(next: () => number): string {
  let s = '';
  for (let k = 0; k < 4; k++) s += CODE_ALPHABET[next() % CODE_ALPHABET.length];
  return s;
}

/** A note line carrying code part `n`, in the category's material style. */
function noteLine(category: FidelityCategory, n: 1 | 2 | 3, part: string): string {
  const sentence = `Access note: part ${n} of the access code is ${part}.`;
  if (category === 'code') return `# ${sentence}\n`;
  if (category === 'json') return `{"note": "${sentence}"}\n`;
  return `${sentence}\n`;
}

const REPLY_CODE_LINE = 'CODE: <parts 1, 2 and 3 of the access code, in order, joined by hyphens>';

/**
 * Builds the fidelity task for `category` from `seed` (any string; use one that names the probe,
 * e.g. `<slot>:<workload>`, so every probe gets fresh numbers and a fresh access code).
 * Pure and deterministic. The integer answers stay well inside 2^31.
 */
export function createFidelityTask(category: FidelityCategory, seed: string): FidelityTask {
  const next = createByteStream(`fidelity:${category}:${seed}`);
  const parts = [codePart(next), codePart(next), codePart(next)] as const;
  const code = parts.join('-');
  const notes: [string, string, string] = [noteLine(category, 1, parts[0]), noteLine(category, 2, parts[1]), noteLine(category, 3, parts[2])];
  const base = { code, checkId: null, sortedWords: null };

  switch (category) {
    case 'math': {
      const a = int(next, 101, 999);
      const b = int(next, 12, 98);
      const c = int(next, 100, 4999);
      return {
        expected: { ...base, check: 'arithmetic', answer: a * b - c },
        instruction: 'Read everything below, including the access notes. The reply format is given at the end.',
        notes,
        checkBlock:
          `Check: compute ${a} * ${b} - ${c}.\n` +
          'Reply format: begin your reply with exactly these two lines:\n' +
          'ANSWER: <the integer result>\n' +
          `${REPLY_CODE_LINE}\n` +
          'Then solve the problems above step by step.',
      };
    }
    case 'code': {
      const values = Array.from({ length: 6 }, () => int(next, 2, 40));
      const start = int(next, 10, 99);
      const factor = int(next, 2, 9);
      let total = start;
      for (const v of values) total = v % 2 === 0 ? total + v * factor : total - v;
      const snippet =
        '```python\n' +
        `values = [${values.join(', ')}]\n` +
        `total = ${start}\n` +
        'for v in values:\n' +
        '    if v % 2 == 0:\n' +
        `        total += v * ${factor}\n` +
        '    else:\n' +
        '        total -= v\n' +
        'print(total)\n' +
        '```';
      return {
        expected: { ...base, check: 'code_output', answer: total },
        instruction: 'Read the code below, including the access notes in its comments. The reply format is given at the end.',
        notes,
        checkBlock:
          `Check: what does this Python program print?\n${snippet}\n` +
          'Reply format: begin your reply with exactly these two lines:\n' +
          'ANSWER: <the integer the program prints>\n' +
          `${REPLY_CODE_LINE}\n` +
          'Then explain what the code above does, function by function.',
      };
    }
    case 'json': {
      const checkId = `chk-${codePart(next).toLowerCase()}`;
      const numbers = Array.from({ length: 4 }, () => int(next, 10, 999));
      const pool = [...WORD_POOL];
      const words: string[] = [];
      for (let k = 0; k < 4; k++) words.push(pool.splice(next() % pool.length, 1)[0]!);
      const sortedWords = [...words].sort();
      return {
        expected: { ...base, check: 'json_schema', answer: numbers.reduce((s, x) => s + x, 0), checkId, sortedWords },
        instruction: 'Read the records below, including the access notes. The reply format is given at the end.',
        notes,
        checkBlock:
          `Check: reply with only one JSON object (no prose, no code fence) with exactly these fields:\n` +
          `"checkId": the string "${checkId}"; ` +
          `"result": the integer sum of ${numbers.join(', ')}; ` +
          `"code": the access code, parts 1, 2 and 3 in order joined by hyphens; ` +
          `"sortedWords": the words ${words.map((w) => `"${w}"`).join(', ')} sorted alphabetically, as an array of strings.`,
      };
    }
    case 'prose':
      return {
        expected: { ...base, check: 'nonce_recall', answer: null },
        instruction: 'Read the notes below, including the access notes. The reply format is given at the end.',
        notes,
        checkBlock:
          'Check: the notes above contain an access code in three parts.\n' +
          'Reply format: begin your reply with exactly this line:\n' +
          `${REPLY_CODE_LINE}\n` +
          'Then write an original short story of at least 300 words that uses the notes.',
      };
  }
}
