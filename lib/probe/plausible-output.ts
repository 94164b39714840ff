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
 *   Text without word separators (Chinese, Japanese, Thai; a run of junk without spaces: more than
 *   MAX_WORD_CHARS characters per word on average, or too few words) is judged the same way on
 *   its non-space characters' 4-grams from MIN_NGRAM_CHARS characters: Chinese prose repeats few
 *   character 4-grams, a loop or a cumulative resend counted as new text nearly all.
 * - `repeated_events`: of the stream's events that carry a letter or digit, more than
 *   REPEATED_EVENT_SHARE repeat the previous such event's text exactly (from MIN_REPEATED_EVENTS
 *   events): every chunk sent twice doubles the count while every word-level ratio stays natural.
 *   Language repeats a whole token back to back rarely ("had had"); whitespace and punctuation
 *   events (indentation, closing braces) are not counted.
 * - `mostly_symbols`: letters and digits (any script, Unicode \p{L}\p{N}) are fewer than
 *   MIN_ALNUM_SHARE of the non-empty text's characters (prose ~80 %, indented JSON or code ≥ 40 %);
 *   whitespace, punctuation and filler characters are not an answer. Judged from MIN_SYMBOL_CHARS
 *   characters.
 *
 * - `token_dense`: of the words made only of ASCII letters (surrounding punctuation stripped), the
 *   o200k tokens per letter exceed MAX_TOKENS_PER_LETTER (from MIN_DENSE_WORDS such words, when
 *   they are at least MIN_ASCII_WORD_SHARE of all words). o200k_base merges the letter sequences
 *   of languages into long tokens: English and Indonesian prose ~0.21-0.25 tokens per letter,
 *   Swahili and Finnish ~0.30-0.33, a sentence of acronyms ~0.31, lorem ipsum ~0.21; uniformly
 *   random letters cannot merge, ~0.52-0.56 (measured with gpt-tokenizer's o200k_base). Random
 *   letters are the cheapest way to inflate the o200k count — the basis the board ranks on — per
 *   byte streamed, about twice what a language gives. Digits, hex and base64 runs are not words of
 *   letters and are not judged here (a table of numbers is an answer).
 *
 * - `no_letters` (decision 307): the text holds no letter or digit at all and the stream made no tool
 *   call: 300 whitespace events or 31 punctuation characters are tokens, but nothing a user could
 *   read (shorter than the `mostly_symbols` minimum). Judged from MIN_NO_LETTER_CHARS characters;
 *   one digit ("4") is an answer.
 * - `copied_spans` (decision 307): more than MAX_COPIED_SHARE of the text's words lie in a run of
 *   COPY_SPAN_WORDS words that already occurred earlier in the text (words lower-cased, surrounding
 *   punctuation stripped; the answer, reasoning and tool arguments judged together, so a copy from
 *   one channel to another counts). The whole answer sent twice is 0.5, four times 0.75, where the
 *   4-gram rule allows up to 0.75 and so up to four times the count. Prose repeats no run of 8
 *   words; a song whose 30-word chorus follows each of 3 verses is 0.37 (5 choruses after
 *   verses of the same length 0.4); a reasoning model's answer quoting a sentence of its
 *   reasoning, or code repeating a line of boilerplate, a few per cent (this project's own source
 *   files 0-0.05). Staying under buys at most 1 ÷ (1 − MAX_COPIED_SHARE) ≈ 1.8× the tokens,
 *   against 4× before; the whole answer sent twice (0.5) is refused. Text of fewer than MIN_NGRAM_WORDS words (no word separators) is judged on
 *   runs of COPY_SPAN_CHARS non-space characters. Judged from MIN_NGRAM_WORDS words / MIN_NGRAM_CHARS characters.
 * - `overlapping_events` (decision 307): of the words of the stream's events (words with a letter or
 *   digit, normalised as for `copied_spans`), more than MAX_OVERLAP_SHARE are an event's opening
 *   words repeating the last words of the text before it (at least MIN_OVERLAP_WORDS of them):
 *   a sliding window where each event resends the previous 3 words and adds 1 is 0.75 and takes
 *   four times the tokens, while every n-gram ratio of the text stays natural. An honest event
 *   never starts by repeating the text's last two words (a stuttered "bye bye" is one in hundreds);
 *   speculative-decoding bursts and stream_interval batches carry new words only. Staying under
 *   buys at most 1 ÷ (1 − MAX_OVERLAP_SHARE) = 1.25× the tokens. Judged from MIN_NGRAM_WORDS words.
 * - `invisible_padding` (decision 307): more than MAX_INVISIBLE_TOKEN_SHARE of the text's o200k
 *   tokens are taken by characters nobody sees: format characters (Unicode \p{Cf}: zero-width
 *   space and joiners, soft hyphen, direction marks) and variation selectors; measured as the
 *   tokens the text loses when they are removed. Four zero-width characters after every word took
 *   0.8 of the count (1588 o200k tokens for 290 words). Persian, which writes a zero-width
 *   non-joiner inside many words, ~0.05; a line dense with emoji joined by ZWJ and VS16 ~0.13.
 *   Staying under buys at most 1 ÷ (1 − MAX_INVISIBLE_TOKEN_SHARE) ≈ 1.33× the count. Judged
 *   from MIN_SYMBOL_CHARS characters.
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
import { countO200kTokens } from '../tokens/o200k';

/** Largest share of repeated word 4-grams a text may have. */
export const REPEATED_NGRAM_SHARE = 0.75;
/** Fewest words for the n-gram rule. */
export const MIN_NGRAM_WORDS = 24;
/** Smallest share of letters and digits among the characters. */
export const MIN_ALNUM_SHARE = 0.2;
/** Fewest characters for the symbol rule. */
export const MIN_SYMBOL_CHARS = 32;
/** Above this many characters per word on average a text is judged by characters, not words. */
export const MAX_WORD_CHARS = 12;
/** Fewest non-space characters for the character form of the n-gram rule. */
export const MIN_NGRAM_CHARS = 48;
/** Largest share of events that may repeat the previous event's text. */
export const REPEATED_EVENT_SHARE = 0.3;
/** Fewest letter-bearing events for the repeated-events rule. */
export const MIN_REPEATED_EVENTS = 16;
/** Most o200k tokens per letter that words of a language come to (see `token_dense`). */
export const MAX_TOKENS_PER_LETTER = 0.45;
/** Fewest words of ASCII letters for the `token_dense` rule. */
export const MIN_DENSE_WORDS = 40;
/** Smallest share of all words that words of ASCII letters must be for `token_dense` to judge. */
export const MIN_ASCII_WORD_SHARE = 0.6;

/** Words in a run that counts as a copy of an earlier run (`copied_spans`). */
export const COPY_SPAN_WORDS = 8;
/** Characters in a run that counts as a copy, for text without word separators. */
export const COPY_SPAN_CHARS = 16;
/** Largest share of the words (or characters) that may lie in a copied run. */
export const MAX_COPIED_SHARE = 0.45;

/** Largest share of the events' words that may repeat the end of the text before their event. */
export const MAX_OVERLAP_SHARE = 0.2;
/** Fewest words an event must repeat from the end of the text before it to count as an overlap. */
export const MIN_OVERLAP_WORDS = 2;
/** Longest overlap looked for, words (bounds the work per event). */
const MAX_OVERLAP_WORDS = 32;

/** Fewest characters for `no_letters` (a lone "." or "?" is too little to call padding). */
export const MIN_NO_LETTER_CHARS = 8;
/** Largest share of the o200k tokens that invisible characters may take (`invisible_padding`). */
export const MAX_INVISIBLE_TOKEN_SHARE = 0.25;
/** Format characters and variation selectors: characters that take tokens and show nothing. */
const INVISIBLE = /[\p{Cf}\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}]/gu;

/**
 * Rules a text broke, in a stable order; [] when plausible (also for text too short to judge).
 * `eventTexts`: the text of each of the stream's events in order (for `repeated_events`);
 * `opts.toolCalls`: how many tool calls the stream made (a tool call is an answer without text).
 */
export function listDegenerateRules(text: string, eventTexts: readonly string[] = [], opts: { toolCalls?: number } = {}): string[] {
  const rules: string[] = [];
  if ((opts.toolCalls ?? 0) === 0 && [...text].length >= MIN_NO_LETTER_CHARS && !/[\p{L}\p{N}]/u.test(text)) rules.push('no_letters');
  if (repeatedNgramShare(text) > REPEATED_NGRAM_SHARE) rules.push('repeated_ngrams');
  if (repeatedEventShare(eventTexts) > REPEATED_EVENT_SHARE) rules.push('repeated_events');
  if (copiedShare(text) > MAX_COPIED_SHARE) rules.push('copied_spans');
  if (overlapShare(eventTexts) > MAX_OVERLAP_SHARE) rules.push('overlapping_events');
  if (text.length >= MIN_SYMBOL_CHARS && alnumShare(text) < MIN_ALNUM_SHARE) rules.push('mostly_symbols');
  if (tokensPerLetter(text) > MAX_TOKENS_PER_LETTER) rules.push('token_dense');
  if (invisibleTokenShare(text) > MAX_INVISIBLE_TOKEN_SHARE) rules.push('invisible_padding');
  return rules;
}

/**
 * Share (0-1) of the text's 4-grams that repeat an earlier one: word 4-grams (lower case); for text
 * without word separators (fewer than MIN_NGRAM_WORDS words, or more than MAX_WORD_CHARS characters
 * per word) character 4-grams of its non-space characters. 0 when too short for either.
 */
export function repeatedNgramShare(text: string): number {
  const words = text
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  const chars = words.reduce((n, w) => n + [...w].length, 0);
  if (words.length >= MIN_NGRAM_WORDS && chars / words.length <= MAX_WORD_CHARS) return repeatedShare(words);
  const units = [...words.join('')];
  return units.length >= MIN_NGRAM_CHARS ? repeatedShare(units) : 0;
}

/**
 * Share (0-1) of the text's words that lie in a run of COPY_SPAN_WORDS words (lower case, surrounding
 * punctuation stripped) occurring earlier in the text; for text of fewer than MIN_NGRAM_WORDS words
 * (Chinese, Japanese, Thai, junk without spaces) of its non-space characters in a run of
 * COPY_SPAN_CHARS. 0 when too short to judge.
 */
export function copiedShare(text: string): number {
  const raw = text.split(/\s+/).filter((w) => w !== '');
  // A verbatim copy keeps its word boundaries, so words judge it whenever there are enough of them,
  // also where words are long (code: identifiers and calls; the 4-gram rule's MAX_WORD_CHARS would
  // send code to characters, where its repeated boilerplate lines look like copies).
  if (raw.length >= MIN_NGRAM_WORDS) return copiedRunShare(raw.map(normalizeWord), COPY_SPAN_WORDS);
  const units = [...raw.join('').toLowerCase()];
  return units.length >= MIN_NGRAM_CHARS ? copiedRunShare(units, COPY_SPAN_CHARS) : 0;
}

/**
 * Share (0-1) of the events' words (with a letter or digit, normalised) that open an event by
 * repeating the last words of the text before it, at least MIN_OVERLAP_WORDS of them (the longest
 * such overlap, up to MAX_OVERLAP_WORDS); 0 below MIN_NGRAM_WORDS words.
 */
export function overlapShare(eventTexts: readonly string[]): number {
  const before: string[] = [];
  let total = 0;
  let overlapped = 0;
  for (const text of eventTexts) {
    const words = text
      .split(/\s+/)
      .map(normalizeWord)
      .filter((w) => /[\p{L}\p{N}]/u.test(w));
    total += words.length;
    for (let k = Math.min(words.length, before.length, MAX_OVERLAP_WORDS); k >= MIN_OVERLAP_WORDS; k--) {
      let same = true;
      for (let i = 0; i < k && same; i++) same = words[i] === before[before.length - k + i];
      if (same) {
        overlapped += k;
        break;
      }
    }
    before.push(...words);
    if (before.length > 2 * MAX_OVERLAP_WORDS) before.splice(0, before.length - MAX_OVERLAP_WORDS);
  }
  return total < MIN_NGRAM_WORDS ? 0 : overlapped / total;
}

/** A word lower-cased, its surrounding punctuation stripped when it has a letter or digit. */
function normalizeWord(word: string): string {
  const lower = word.toLowerCase();
  if (!/[\p{L}\p{N}]/u.test(lower)) return lower;
  return lower.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '');
}

/** Share of `units` covered by a run of `span` units equal to a run starting earlier. */
function copiedRunShare(units: readonly string[], span: number): number {
  if (units.length < span) return 0;
  const seen = new Set<string>();
  const copied = new Uint8Array(units.length);
  for (let i = 0; i + span <= units.length; i++) {
    const run = units.slice(i, i + span).join('\u0000');
    if (seen.has(run)) copied.fill(1, i, i + span);
    else seen.add(run);
  }
  return copied.reduce((n, c) => n + c, 0) / units.length;
}

/** Share of the 4-grams of `units` that repeat an earlier 4-gram. */
function repeatedShare(units: readonly string[]): number {
  const seen = new Set<string>();
  let repeats = 0;
  const total = units.length - 3;
  for (let i = 0; i < total; i++) {
    const gram = `${units[i]}\u0000${units[i + 1]}\u0000${units[i + 2]}\u0000${units[i + 3]}`;
    if (seen.has(gram)) repeats += 1;
    else seen.add(gram);
  }
  return repeats / total;
}

/**
 * Share (0-1) of the events carrying a letter or digit whose text equals the previous such event's
 * text; 0 below MIN_REPEATED_EVENTS such events.
 */
export function repeatedEventShare(eventTexts: readonly string[]): number {
  const texts = eventTexts.filter((t) => /[\p{L}\p{N}]/u.test(t));
  if (texts.length < MIN_REPEATED_EVENTS) return 0;
  let repeats = 0;
  for (let i = 1; i < texts.length; i++) if (texts[i] === texts[i - 1]) repeats += 1;
  return repeats / (texts.length - 1);
}

/**
 * o200k tokens per letter of the text's words of ASCII letters (surrounding punctuation stripped,
 * joined by single spaces); 0 when fewer than MIN_DENSE_WORDS such words or when they are less
 * than MIN_ASCII_WORD_SHARE of all words (other scripts, code, numbers: not judged).
 */
export function tokensPerLetter(text: string): number {
  const all = text.split(/\s+/).filter((w) => w !== '');
  const words: string[] = [];
  for (const w of all) {
    const core = w.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '');
    if (/^[A-Za-z]+$/.test(core)) words.push(core);
  }
  if (words.length < MIN_DENSE_WORDS || words.length < MIN_ASCII_WORD_SHARE * all.length) return 0;
  const letters = words.reduce((n, w) => n + w.length, 0);
  return countO200kTokens(words.join(' ')) / letters;
}

/**
 * Share (0-1) of the text's o200k tokens taken by format characters and variation selectors: the
 * tokens it loses when they are removed. 0 below MIN_SYMBOL_CHARS characters or without any.
 */
export function invisibleTokenShare(text: string): number {
  if (text.length < MIN_SYMBOL_CHARS || !INVISIBLE.test(text)) return 0;
  INVISIBLE.lastIndex = 0;
  const all = countO200kTokens(text);
  return all === 0 ? 0 : Math.max(0, all - countO200kTokens(text.replace(INVISIBLE, ''))) / all;
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
