import { describe, expect, it } from 'vitest';
import { countO200kTokens, encodeO200k } from '../tokens/o200k';
import { buildCachePrompts } from './cache-prompts';
import { CACHE_SHARED_PREFIX_TOKENS, getWorkloadOrThrow } from './workloads';

describe('prompt-cache prompts (issue 25)', () => {
  const cold = getWorkloadOrThrow('cache-cold-2k');

  it('cold and warm share ≥ 1,024 leading o200k tokens exactly and differ after them', () => {
    const pair = buildCachePrompts(cold, 'slot-1\u0000secret-a');
    const a = encodeO200k(pair.cold.prompt);
    const b = encodeO200k(pair.warm.prompt);
    let common = 0;
    while (common < a.length && a[common] === b[common]) common++;
    expect(common).toBeGreaterThanOrEqual(1_024);
    expect(Math.abs(common - CACHE_SHARED_PREFIX_TOKENS)).toBeLessThanOrEqual(2);
    expect(pair.cold.prompt.slice(0, pair.sharedPrefixChars)).toBe(pair.warm.prompt.slice(0, pair.sharedPrefixChars));
    expect(pair.cold.prompt).not.toBe(pair.warm.prompt);
    expect(pair.cold.promptHash).not.toBe(pair.warm.promptHash);
    for (const p of [pair.cold.prompt, pair.warm.prompt])
      expect(Math.abs(countO200kTokens(p) - cold.inputTokensTarget)).toBeLessThanOrEqual(cold.inputTokensTarget * 0.1);
  });

  it('the warm workload builds the same pair; another key shares nothing from the start', () => {
    const k = 'slot-1\u0000secret-a';
    expect(buildCachePrompts(getWorkloadOrThrow('cache-warm-2k'), k)).toEqual(buildCachePrompts(cold, k));
    const other = buildCachePrompts(cold, 'slot-1\u0000secret-b');
    expect(other.cold.prompt.slice(0, 30)).not.toBe(buildCachePrompts(cold, k).cold.prompt.slice(0, 30));
  });

  it('refuses a prefix below the caching threshold', () => {
    expect(() => buildCachePrompts({ slug: 'cache-cold-x', sharedPrefixTokens: 512 }, 'k')).toThrow(RangeError);
  });
});
