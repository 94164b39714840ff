/**
 * Prompts of the prompt-cache family (issue 25, decision 260): one cold and one warm prompt that
 * share their first `sharedPrefixTokens` o200k tokens exactly, byte for byte.
 *
 * The shared prefix is an ordinary prose prompt (./workloads buildPrompt) keyed by the request's
 * key (slot + 128 secret random bits, decision 173): it opens with the key's nonce, so no
 * provider's cache can hold it before the cold request, and the warm request (sent right after
 * the cold one ends) finds it there if the provider caches prefixes. The two prompts differ only
 * in their closing question, so their answers differ (no `repeated_answer`). Pure, deterministic.
 */
import { createHash } from 'node:crypto';
import { buildPrompt, type BuiltPrompt, type Workload } from './workloads';

/** The closing question of each role; each ~60 o200k tokens, so a prompt is ~prefix + 60. */
const QUESTIONS = {
  cold: '\n\nQuestion A: using only the notes above, write the story from the point of view of the first person or thing the notes mention. Keep it in the past tense, give it a title on its first line, and end it with a sentence that returns to the opening place.',
  warm: '\n\nQuestion B: using only the notes above, write the story as a letter from the last person or thing the notes mention to a friend who was not there. Keep it in the present tense, sign it at the end, and mention at least three of the places in the notes.',
} as const;

/** The cold and warm prompts of one request key, with the shared prefix's length in characters. */
export interface CachePromptPair {
  cold: BuiltPrompt;
  warm: BuiltPrompt;
  /** characters both prompts share from their start (the prefix) */
  sharedPrefixChars: number;
}

/**
 * The cold and warm prompts for `workload` (a `cache-*` workload: its `sharedPrefixTokens`, default
 * 1,900) under `key`. Same key → same pair; the warm prompt starts with exactly the cold prompt's
 * prefix. Neither carries a fidelity check (their figures are TTFT and the cache counts).
 * @throws RangeError when sharedPrefixTokens is below 1,024 (below every provider's caching threshold)
 */
export function buildCachePrompts(workload: Pick<Workload, 'slug'> & Partial<Pick<Workload, 'sharedPrefixTokens'>>, key: string): CachePromptPair {
  const prefixTokens = workload.sharedPrefixTokens ?? 1_900;
  if (prefixTokens < 1_024) throw new RangeError('sharedPrefixTokens must be at least 1,024');
  // One prefix per family and key: cold and warm slugs build the same one.
  const family = workload.slug.replace(/^cache-(cold|warm)-/, 'cache-');
  const prefix = buildPrompt({ slug: family, category: 'prose', inputTokensTarget: prefixTokens }, key).prompt;
  const built = (prompt: string): BuiltPrompt => ({ prompt, promptHash: createHash('sha256').update(prompt).digest('hex'), fidelity: null });
  return { cold: built(prefix + QUESTIONS.cold), warm: built(prefix + QUESTIONS.warm), sharedPrefixChars: prefix.length };
}
