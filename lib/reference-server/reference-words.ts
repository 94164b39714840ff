/**
 * Words the reference server streams: each is exactly ONE o200k_base token, and because each
 * starts with a space, o200k's pre-tokenizer keeps neighbours apart, so a text of N words is
 * exactly N tokens (verified in reference-server.test.ts). That makes the server's configured
 * token rate the true o200k rate.
 */
export const REFERENCE_WORDS: readonly string[] = [
  ' time',
  ' water',
  ' people',
  ' world',
  ' house',
  ' river',
  ' market',
  ' bridge',
  ' signal',
  ' engine',
  ' garden',
  ' paper',
  ' music',
  ' color',
  ' window',
  ' table',
  ' model',
  ' speed',
  ' token',
  ' stream',
  ' measure',
  ' value',
  ' light',
  ' story',
  ' sound',
  ' city',
  ' home',
  ' air',
  ' line',
  ' form',
  ' number',
  ' point',
  ' hand',
  ' name',
  ' place',
  ' life',
  ' thing',
  ' work',
  ' day',
  ' year',
  ' long',
  ' small',
  ' large',
  ' great',
  ' good',
  ' new',
  ' first',
  ' right',
  ' same',
  ' part',
  ' find',
  ' make',
  ' know',
  ' see',
  ' use',
  ' help',
  ' turn',
  ' move',
  ' need',
  ' back',
  ' way',
  ' end',
  ' still',
  ' never',
];

/**
 * The reference text's i-th token (0-based); deterministic, and varied like text: the index is a
 * mixed hash of i (the murmur3 finaliser), so word n-grams do not recur in a short cycle (a cyclic
 * sequence repeats its 4-grams and is degenerate output, lib/probe/plausible-output.ts).
 */
export function referenceWord(i: number): string {
  let h = (i + 0x9e3779b9) | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return REFERENCE_WORDS[(h >>> 0) % REFERENCE_WORDS.length]!;
}
