/**
 * o200k_base token counting: the normalised token basis of Tokenpace (Artificial Analysis
 * methodology counts every provider's output with the same tokenizer so that providers with
 * different native tokenizers compare fairly).
 *
 * The import path matters: `gpt-tokenizer/encoding/o200k_base` carries its vocabulary inside the
 * package (no network) and counts about 3 M tokens/s here.
 */
import { decode, encode } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * Model output may contain strings that look like special tokens (`<|endoftext|>`); gpt-tokenizer
 * throws on those by default. For counting, they are ordinary text.
 */
const ORDINARY_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Counts of short texts seen recently. Streams are made of short event texts that repeat a lot
 * (" the", ",", " of"...); a hit costs a map lookup instead of a tokenizer call, which matters
 * when hundreds of probes finish together in one worker (see bench:probe capacity).
 */
const SHORT_TEXT_CHARS = 32;
const CACHE_LIMIT = 50_000;
const shortTextCounts = new Map<string, number>();

/**
 * Number of o200k_base tokens in `text` (special-token lookalikes counted as plain text).
 * Returns 0 for the empty string. Never throws for any string input.
 */
export function countO200kTokens(text: string): number {
  if (text === '') return 0;
  if (text.length > SHORT_TEXT_CHARS) return encode(text, ORDINARY_TEXT).length;
  const cached = shortTextCounts.get(text);
  if (cached !== undefined) return cached;
  const count = encode(text, ORDINARY_TEXT).length;
  if (shortTextCounts.size >= CACHE_LIMIT) shortTextCounts.clear();
  shortTextCounts.set(text, count);
  return count;
}

/** o200k_base token ids of `text` (special-token lookalikes encoded as plain text). */
export function encodeO200k(text: string): number[] {
  return encode(text, ORDINARY_TEXT);
}

/** Text of o200k_base token ids; may end in a partial character if the ids split one. */
export function decodeO200k(tokens: number[]): string {
  return decode(tokens);
}
