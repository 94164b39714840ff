import { describe, expect, it } from 'vitest';
import { countO200kTokens, decodeO200k, encodeO200k } from './o200k';

describe('o200k token counting', () => {
  it('counts known texts', () => {
    expect(countO200kTokens('')).toBe(0);
    expect(countO200kTokens(' time')).toBe(1);
    expect(countO200kTokens('Hello, world.')).toBe(4);
    expect(countO200kTokens('Hello, world.')).toBe(encodeO200k('Hello, world.').length);
  });

  it('counts special-token lookalikes as text instead of throwing', () => {
    expect(() => countO200kTokens('before <|endoftext|> after')).not.toThrow();
    expect(countO200kTokens('<|endoftext|>')).toBeGreaterThan(1);
  });

  it('gives the same count from the short-text cache as from the tokenizer', () => {
    const texts = [' the', ',', ' the', ' 17', ' ×', ' the', 'x'.repeat(40)];
    for (const t of texts) expect(countO200kTokens(t)).toBe(encodeO200k(t).length);
  });

  it('round-trips text through encode/decode', () => {
    const text = 'Größe 🚀 and code: const x = 1;';
    expect(decodeO200k(encodeO200k(text))).toBe(text);
  });
});
