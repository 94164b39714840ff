import { describe, expect, it } from 'vitest';
import { countO200kTokens } from '../tokens/o200k';
import { hashStream, phrase } from './prompt-pool';
import { longestSharedRun } from './test-support/longest-shared-run';
import { buildPrompt, fitsContextWindow, getWorkloadOrThrow, INSTRUCTIONS, WORKLOADS } from './workloads';

describe('workloads', () => {
  it('has the 16 stable slugs of the grid with a fixed output budget and concurrency 1', () => {
    expect(WORKLOADS.map((w) => w.slug)).toEqual([
      'prose-100',
      'prose-1k',
      'prose-10k',
      'prose-100k',
      'code-100',
      'code-1k',
      'code-10k',
      'code-100k',
      'math-100',
      'math-1k',
      'math-10k',
      'math-100k',
      'json-100',
      'json-1k',
      'json-10k',
      'json-100k',
    ]);
    expect(WORKLOADS.filter((w) => w.headline).map((w) => w.slug)).toEqual(['prose-1k']);
    expect(getWorkloadOrThrow('prose-100k').minContextTokens).toBe(111_000);
    expect(fitsContextWindow(getWorkloadOrThrow('prose-100k'), 131_072)).toBe(true);
    expect(fitsContextWindow(getWorkloadOrThrow('prose-100k'), null)).toBe(false);
    expect(fitsContextWindow(getWorkloadOrThrow('prose-10k'), null)).toBe(true);
    for (const w of WORKLOADS) {
      expect(w.maxOutputTokens).toBe(256);
      expect(w.concurrency).toBe(1);
    }
    expect(getWorkloadOrThrow('json-10k').inputTokensTarget).toBe(10_000);
    expect(() => getWorkloadOrThrow('nope')).toThrow();
  });

  it.each(WORKLOADS.map((w) => [w.slug, w] as const))('%s: o200k length within ±10 %% of the target', (_slug, w) => {
    for (const slot of ['2026-11-29T18:00:00.000Z', '2026-11-29T18:15:00.000Z']) {
      const { prompt } = buildPrompt(w, slot);
      const n = countO200kTokens(prompt);
      expect(Math.abs(n - w.inputTokensTarget)).toBeLessThanOrEqual(w.inputTokensTarget * 0.1);
    }
  });

  it.each(WORKLOADS.map((w) => [w.slug, w] as const))('%s fidelity prompt: within ±10 %% of the target (≤ 250 tokens at ~100)', (_slug, w) => {
    const built = buildPrompt(w, '2026-11-29T18:00:00.000Z', { fidelity: true });
    const n = countO200kTokens(built.prompt);
    if (w.inputTokensTarget < 1000) expect(n).toBeLessThanOrEqual(250);
    else expect(Math.abs(n - w.inputTokensTarget)).toBeLessThanOrEqual(w.inputTokensTarget * 0.1);
    expect(built.fidelity).not.toBeNull();
    expect(built.prompt.startsWith(buildPrompt(w, '2026-11-29T18:00:00.000Z').prompt.slice(0, 24))).toBe(true);
  });

  it('is deterministic per slot and fresh across slots, nonce first', () => {
    const w = getWorkloadOrThrow('prose-1k');
    const a = buildPrompt(w, 'slot-A');
    const again = buildPrompt(w, 'slot-A');
    const b = buildPrompt(w, 'slot-B');
    expect(again).toEqual(a);
    expect(b.prompt).not.toBe(a.prompt);
    expect(b.promptHash).not.toBe(a.promptHash);
    expect(a.promptHash).toMatch(/^[0-9a-f]{64}$/);
    // The first 30 characters already differ, so no prefix cache can serve the new slot.
    expect(a.prompt.slice(0, 30)).not.toBe(b.prompt.slice(0, 30));
    // Different workloads in the same slot differ too.
    expect(buildPrompt(getWorkloadOrThrow('prose-100'), 'slot-A').prompt.slice(0, 30)).not.toBe(a.prompt.slice(0, 30));
  });

  it('json workloads carry a parseable JSON array', () => {
    const { prompt } = buildPrompt(getWorkloadOrThrow('json-1k'), 'slot-A');
    const start = prompt.indexOf('[\n');
    const records = prompt.slice(start);
    // The cut may end inside the last record; every complete record before it is valid JSON.
    const firstRecord = records.slice(2, records.indexOf('}') + 1);
    expect(JSON.parse(firstRecord)).toHaveProperty('sku');
  });
  it.each(['prose', 'code', 'math', 'json'] as const)('two %s prompts of one slot share no long run of tokens (60 key pairs)', (category) => {
    // Deterministic keys stand in for the 128 secret random bits, so this test cannot flake; what
    // it guards is the kind: a fixed run of wording or of material template (a 20-token
    // instruction clause, a 58-token function body) that every probe would carry. Measured over
    // 2,000 random pairs a category (2026-12-01): medians 9–16, max 19 (prose) to 37 (json).
    const w = { slug: `${category}-1k`, category, inputTokensTarget: 1000 };
    const runs = Array.from({ length: 60 }, (_, k) =>
      longestSharedRun(buildPrompt(w, `slot\u0000pair-${k}-a`).prompt, buildPrompt(w, `slot\u0000pair-${k}-b`).prompt),
    ).sort((a, b) => a - b);
    expect(runs[30]!).toBeLessThanOrEqual(18);
    expect(runs.at(-1)!).toBeLessThanOrEqual(48);
  });

  it('every instruction clause carries a slot, and slots fill from the pool within their range', () => {
    for (const clauses of Object.values(INSTRUCTIONS)) {
      for (const alternatives of clauses) for (const wording of alternatives) expect(wording).toMatch(/\{[a-zA-Z]+\}|\{\d+-\d+\}/);
    }
    const random = hashStream(Buffer.alloc(32, 7));
    const seen = new Set<string>();
    for (let i = 0; i < 400; i++) seen.add(phrase(random, [['{3-5}']]));
    expect([...seen].sort()).toEqual(['3', '4', '5']); // both ends reachable, nothing outside
    expect(phrase(random, [['a {city} b']])).toMatch(/^a \S+ b$/);
    expect(() => phrase(random, [['a {cty} b']])).toThrow(/unknown slot \{cty\}/);
  });
});
