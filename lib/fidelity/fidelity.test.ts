import { describe, expect, it } from 'vitest';
import { buildPrompt, WORKLOADS } from '../probe/workloads';
import { answerFidelityPrompt } from './answer-task';
import { createFidelityTask, FIDELITY_CHECK_BY_CATEGORY, type FidelityCategory } from './tasks';
import { extractFirstJsonObject, verifyFidelityAnswer } from './verify-answer';

const CATEGORIES: FidelityCategory[] = ['prose', 'code', 'math', 'json'];
const SLOTS = ['2026-11-30T12:00:00.000Z', '2026-11-30T12:01:00.000Z', '2026-11-30T13:17:00.000Z'];

describe('fidelity tasks', () => {
  it('are deterministic per seed and fresh across seeds', () => {
    for (const c of CATEGORIES) {
      expect(createFidelityTask(c, 'a')).toEqual(createFidelityTask(c, 'a'));
      expect(createFidelityTask(c, 'a').expected.code).not.toBe(createFidelityTask(c, 'b').expected.code);
      expect(createFidelityTask(c, 'a').expected.check).toBe(FIDELITY_CHECK_BY_CATEGORY[c]);
      expect(createFidelityTask(c, 'a').expected.code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    }
  });

  it('the perfect answerer passes every workload of the grid (all three code parts are in the prompt)', () => {
    for (const w of WORKLOADS.filter((x) => x.inputTokensTarget <= 10_000)) {
      for (const slot of SLOTS) {
        const built = buildPrompt(w, slot, { fidelity: true });
        expect(built.fidelity).not.toBeNull();
        const reply = answerFidelityPrompt(built.prompt);
        expect(reply, w.slug).not.toBeNull();
        const verdict = verifyFidelityAnswer(built.fidelity!, `${reply!} filler words follow here and there`);
        expect(verdict, `${w.slug} ${slot}`).toEqual({ passed: true, failures: [], got: expect.any(Object) });
      }
    }
  });

  it('ordinary prompts carry no check', () => {
    const built = buildPrompt(WORKLOADS[1]!, SLOTS[0]!);
    expect(built.fidelity).toBeNull();
    expect(answerFidelityPrompt(built.prompt)).toBeNull();
  });

  it('the access code is spread: start, middle and end of the material', () => {
    for (const w of WORKLOADS.filter((x) => x.inputTokensTarget === 10_000)) {
      const { prompt } = buildPrompt(w, SLOTS[0]!, { fidelity: true });
      const at = [1, 2, 3].map((n) => prompt.indexOf(`part ${n} of the access code`) / prompt.length);
      expect(at[0]!).toBeLessThan(0.05);
      expect(at[1]!).toBeGreaterThan(0.35);
      expect(at[1]!).toBeLessThan(0.65);
      expect(at[2]!).toBeGreaterThan(0.95);
    }
  });

  it.each([
    ['keeps the start', (p: string) => p.slice(0, Math.floor(p.length * 0.6))],
    ['keeps the end', (p: string) => p.slice(Math.floor(p.length * 0.4))],
    ['drops the middle', (p: string) => p.slice(0, Math.floor(p.length * 0.3)) + p.slice(Math.floor(p.length * 0.7))],
  ])('a server that truncates the prompt (%s) fails the nonce check', (_name, truncate) => {
    for (const c of CATEGORIES) {
      const w = WORKLOADS.find((x) => x.category === c && x.inputTokensTarget === 10_000)!;
      const built = buildPrompt(w, SLOTS[1]!, { fidelity: true });
      const truncated = truncate(built.prompt);
      // A truncating server that keeps the end still sees the question; one that keeps the start does not.
      const reply = answerFidelityPrompt(truncated) ?? 'I could not find a question.';
      const verdict = verifyFidelityAnswer(built.fidelity!, reply);
      expect(verdict.passed, c).toBe(false);
      expect(verdict.failures).toContain(verdict.failures.includes('no_answer') ? 'no_answer' : 'nonce_missing');
    }
  });
});

describe('verifyFidelityAnswer', () => {
  const math = createFidelityTask('math', 'seed').expected;
  const json = createFidelityTask('json', 'seed').expected;
  const good = `ANSWER: ${math.answer}\nCODE: ${math.code}\n`;

  it('tolerates formatting: markdown, thousands separators, lower case, periods', () => {
    const formatted = `Sure!\n**ANSWER:** ${math.answer!.toLocaleString('en-US')}.\n**CODE:** ${math.code.toLowerCase()}\nNow the problems...`;
    expect(verifyFidelityAnswer(math, formatted).passed).toBe(true);
    expect(verifyFidelityAnswer(math, good).passed).toBe(true);
  });

  it.each([
    ['wrong result', `ANSWER: ${math.answer! + 1}\nCODE: ${math.code}`, ['wrong_answer']],
    ['no answer line', `CODE: ${math.code}`, ['no_answer']],
    ['wrong code', `ANSWER: ${math.answer}\nCODE: AAAA-BBBB-CCCC`, ['nonce_missing']],
    ['partial code', `ANSWER: ${math.answer}\nCODE: ${math.code.slice(0, 9)}????`, ['nonce_missing']],
    ['nothing', 'The quick brown fox.', ['no_answer', 'nonce_missing']],
    ['empty', '', ['no_answer', 'nonce_missing']],
  ])('math: %s fails', (_name, text, failures) => {
    expect(verifyFidelityAnswer(math, text)).toMatchObject({ passed: false, failures });
  });

  it('json: passes a correct object in a code fence, fails schema, values and code', () => {
    const obj = { checkId: json.checkId, result: json.answer, code: json.code, sortedWords: json.sortedWords };
    expect(verifyFidelityAnswer(json, '```json\n' + JSON.stringify(obj, null, 2) + '\n```').passed).toBe(true);
    expect(verifyFidelityAnswer(json, JSON.stringify({ ...obj, result: String(obj.result) }))).toMatchObject({ failures: ['schema_mismatch'] });
    expect(verifyFidelityAnswer(json, JSON.stringify({ ...obj, extra: 1 }))).toMatchObject({ failures: ['schema_mismatch'] });
    expect(verifyFidelityAnswer(json, JSON.stringify({ ...obj, result: obj.result! + 2 }))).toMatchObject({ failures: ['wrong_answer'] });
    expect(verifyFidelityAnswer(json, JSON.stringify({ ...obj, sortedWords: [...obj.sortedWords!].reverse() }))).toMatchObject({ failures: ['wrong_answer'] });
    expect(verifyFidelityAnswer(json, JSON.stringify({ ...obj, code: 'X' }))).toMatchObject({ failures: ['nonce_missing'] });
    expect(verifyFidelityAnswer(json, '{"checkId": "x", "result": 1,')).toMatchObject({ failures: ['no_answer'] });
    expect(verifyFidelityAnswer(json, '{"checkId": x}')).toMatchObject({ failures: ['invalid_json'] });
  });

  it('extractFirstJsonObject ignores braces inside strings', () => {
    expect(extractFirstJsonObject('x {"a": "}{", "b": {"c": 1}} y {"d": 2}')).toBe('{"a": "}{", "b": {"c": 1}}');
    expect(extractFirstJsonObject('no object')).toBeNull();
  });
});

describe('judgeFidelityProbe', () => {
  const expected = createFidelityTask('math', 's').expected;
  it('caps the stored answer at 16 KB on a character boundary and judges only successful probes', async () => {
    const { capUtf8, judgeFidelityProbe, ANSWER_TEXT_CAP_BYTES } = await import('./judge-probe');
    const long = `ANSWER: ${expected.answer}\nCODE: ${expected.code}\n` + 'é'.repeat(20_000);
    const judged = judgeFidelityProbe(expected, { outcome: 'success', answerText: long });
    expect(judged.fidelityPassed).toBe(true);
    expect(Buffer.byteLength(judged.answerText!, 'utf8')).toBeLessThanOrEqual(ANSWER_TEXT_CAP_BYTES);
    expect(judged.answerText!.endsWith('é')).toBe(true);
    expect(capUtf8('abc')).toBe('abc');
    expect(judgeFidelityProbe(expected, { outcome: 'error', answerText: 'ANSWER: 1' })).toMatchObject({ fidelityCheck: 'arithmetic', fidelityPassed: null });
    expect(judgeFidelityProbe(null, { outcome: 'success', answerText: 'x' })).toEqual({
      fidelityCheck: null,
      fidelityPassed: null,
      fidelityDetail: null,
      answerText: null,
    });
  });
});
