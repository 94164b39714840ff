/**
 * Cheap plausibility of the received text (decision 171): rules that apply to every sample, also
 * where no fidelity check ran, so an endpoint cannot rank by streaming fast junk. Each rule is a
 * ratio of the text to itself (no dictionary, no model, no network):
 *
 * - `repeated_ngrams`: of the word 4-grams of the text (words = whitespace-separated, lower case),
 *   more than REPEATED_NGRAM_SHARE are repeats of an earlier 4-gram. Prose of 200 words repeats
 *   almost none; a rewrite of templated code (the code workloads) repeats its template with
 *   changing names and numbers, about half; a generation loop ("the the the", one sentence over and
 *   over, vllm-project/vllm#38045's forced-acceptance garbage) approaches 1. Judged from
 *   MIN_NGRAM_WORDS words.
 * - `mostly_symbols`: letters and digits (any script, Unicode \p{L}\p{N}) are fewer than
 *   MIN_ALNUM_SHARE of the non-empty text's characters (prose ~80 %, indented JSON or code ≥ 40 %);
 *   whitespace, punctuation and filler characters are not an answer. Judged from MIN_SYMBOL_CHARS
 *   characters.
 *
 * The third rule, the same answer to different prompts, needs the endpoint's recent samples and
 * lives with the worker (`repeated_answer`); {@link hashAnswerText} is its key.
 *
 * Why an attacker cannot sit just under: both bounds are shares of the text itself, so staying under
 * them means sending text that varies like language (a new 4-gram at least every other word, mostly
 * letters); such text must also differ between prompts (repeated_answer), and answers are checked
 * for correctness by fidelity probes drawn with a secret (lib/fidelity, decision 173).
 */
import { createHash } from 'node:crypto';

/** Largest share of repeated word 4-grams a text may have. */
export const REPEATED_NGRAM_SHARE = 0.75;
/** Fewest words for the n-gram rule. */
export const MIN_NGRAM_WORDS = 24;
/** Smallest share of letters and digits among the characters. */
export const MIN_ALNUM_SHARE = 0.2;
/** Fewest characters for the symbol rule. */
export const MIN_SYMBOL_CHARS = 32;

/** Rules a text broke, in a stable order; [] when plausible (also for text too short to judge). */
export function listDegenerateRules(text: string): string[] {
  const rules: string[] = [];
  if (repeatedNgramShare(text) > REPEATED_NGRAM_SHARE) rules.push('repeated_ngrams');
  if (text.length >= MIN_SYMBOL_CHARS && alnumShare(text) < MIN_ALNUM_SHARE) rules.push('mostly_symbols');
  return rules;
}

/** Share (0-1) of the text's word 4-grams that repeat an earlier one; 0 below MIN_NGRAM_WORDS words. */
export function repeatedNgramShare(text: string): number {
  const words = text
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  if (words.length < MIN_NGRAM_WORDS) return 0;
  const seen = new Set<string>();
  let repeats = 0;
  const total = words.length - 3;
  for (let i = 0; i < total; i++) {
    const gram = `${words[i]}\u0000${words[i + 1]}\u0000${words[i + 2]}\u0000${words[i + 3]}`;
    if (seen.has(gram)) repeats += 1;
    else seen.add(gram);
  }
  return repeats / total;
}

/** Share (0-1) of letters and digits among the characters (code points) of `text`; 1 for ''. */
export function alnumShare(text: string): number {
  let all = 0;
  let alnum = 0;
  for (const ch of text) {
    all += 1;
    if (/[\p{L}\p{N}]/u.test(ch)) alnum += 1;
  }
  return all === 0 ? 1 : alnum / all;
}

/**
 * SHA-256 hex of a text with whitespace collapsed and case folded: two answers with this key are
 * the same answer. null for text without any letter or digit (nothing to compare, e.g. a pure
 * tool call answered elsewhere).
 */
export function hashAnswerText(text: string): string | null {
  const normal = text.toLowerCase().replace(/\s+/g, ' ').trim();
  if (!/[\p{L}\p{N}]/u.test(normal)) return null;
  return createHash('sha256').update(normal).digest('hex');
}
