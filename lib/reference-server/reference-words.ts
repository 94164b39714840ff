/**
 * Words the reference server streams: each is exactly ONE o200k_base token, and because each
 * starts with a space, o200k's pre-tokenizer keeps neighbours apart, so a text of N words is
 * exactly N tokens (verified in reference-server.test.ts). That makes the server's configured
 * token rate the true o200k rate.
 */
export const REFERENCE_WORDS: readonly string[] = [
  ' time', ' water', ' people', ' world', ' house', ' river', ' market', ' bridge', ' signal', ' engine',
  ' garden', ' paper', ' music', ' color', ' window', ' table', ' model', ' speed', ' token', ' stream',
  ' measure', ' value', ' light', ' story', ' sound', ' city', ' home', ' air', ' line', ' form',
  ' number', ' point', ' hand', ' name', ' place', ' life', ' thing', ' work', ' day', ' year',
  ' long', ' small', ' large', ' great', ' good', ' new', ' first', ' right', ' same', ' part',
  ' find', ' make', ' know', ' see', ' use', ' help', ' turn', ' move', ' need', ' back',
  ' way', ' end', ' still', ' never',
];

/** The reference text's i-th token (0-based); deterministic, varied so output looks like text. */
export function referenceWord(i: number): string {
  return REFERENCE_WORDS[(i * 7 + Math.floor(i / REFERENCE_WORDS.length)) % REFERENCE_WORDS.length]!;
}
