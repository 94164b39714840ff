/**
 * The text rules of decision 171 at the edge of every threshold, and the two kinds added by
 * decision 303: text without word separators judged by characters, and every event sent twice.
 */
import { describe, expect, it } from 'vitest';
import {
  listDegenerateRules,
  MAX_WORD_CHARS,
  MIN_NGRAM_CHARS,
  MIN_REPEATED_EVENTS,
  REPEATED_EVENT_SHARE,
  repeatedEventShare,
  repeatedNgramShare,
} from './plausible-output';

// 120 distinct CJK characters of ordinary prose (no character 4-gram repeats)
const CJK =
  '灯塔守在海边的岩石上每天夜里把光送向远方的船只老人独自住在塔里他记得每一艘经过的船和每一场风暴有一年冬天大雾连着下了七天港口里的渔民都以为他病倒了可是第八天清晨那束光又亮了起来照着归来的人们回家孩子们跑到岸边向塔顶挥手老人慢慢走下台阶手里提着一盏小灯笑着说雾总会散的船也总会回来';

describe('repeated n-grams', () => {
  it('text without word separators is judged on its characters: Chinese prose passes, the same prose resent as new text fails', () => {
    expect(repeatedNgramShare(CJK)).toBeLessThan(0.1);
    expect(listDegenerateRules(CJK)).toEqual([]);
    // a cumulative stream whose prefix chain broke, counted as new text each time: 1 + 1..20 prefixes
    let counted = '';
    for (let k = 1; k <= 20; k++) counted += CJK.slice(0, k * 6);
    expect(repeatedNgramShare(counted)).toBeGreaterThan(0.75);
    expect(listDegenerateRules(counted)).toContain('repeated_ngrams');
    // junk without spaces
    expect(listDegenerateRules('a'.repeat(200))).toContain('repeated_ngrams');
    expect(listDegenerateRules('0123456789'.repeat(20))).toContain('repeated_ngrams');
  });

  it('the character form starts at MIN_NGRAM_CHARS non-space characters', () => {
    expect(repeatedNgramShare('a'.repeat(MIN_NGRAM_CHARS - 1))).toBe(0);
    expect(repeatedNgramShare('a'.repeat(MIN_NGRAM_CHARS))).toBeGreaterThan(0.9);
  });

  it('words of up to MAX_WORD_CHARS characters on average are judged as words; longer ones by characters', () => {
    // 30 distinct words of exactly MAX_WORD_CHARS letters: as words, no 4-gram repeats
    const word = (i: number) => `w${String(i).padStart(2, '0')}`.padEnd(MAX_WORD_CHARS, 'x');
    const atLimit = Array.from({ length: 30 }, (_, i) => word(i)).join(' ');
    expect(repeatedNgramShare(atLimit)).toBe(0);
    // one letter more per word: judged by characters, where the shared "xxxx" runs repeat
    const over = Array.from({ length: 30 }, (_, i) => `${word(i)}x`).join(' ');
    expect(repeatedNgramShare(over)).toBeGreaterThan(0.5);
  });

  it('English prose of 200 words stays far below the limit', () => {
    const prose = Array.from({ length: 50 }, (_, i) => `sentence ${i} tells part ${i * 7} of the story`).join('. ');
    expect(listDegenerateRules(prose)).toEqual([]);
  });
});

describe('repeated events', () => {
  const words = Array.from({ length: 40 }, (_, i) => ` word${i}`);

  it('every event sent twice is caught; an honest stream is not', () => {
    expect(repeatedEventShare(words)).toBe(0);
    const doubled = words.flatMap((w) => [w, w]);
    expect(repeatedEventShare(doubled)).toBeCloseTo(40 / 79, 9);
    expect(listDegenerateRules(doubled.join(''), doubled)).toContain('repeated_events');
    expect(listDegenerateRules(words.join(''), words)).toEqual([]);
  });

  it('at REPEATED_EVENT_SHARE exactly it passes; one repeat more fails', () => {
    // 21 letter-bearing events = 20 transitions; 6 repeats = 0.3
    const make = (repeats: number) => Array.from({ length: 21 }, (_, i) => (i > 0 && i <= repeats ? words[0]! : words[i]!));
    expect(repeatedEventShare(make(6))).toBeCloseTo(REPEATED_EVENT_SHARE, 9);
    expect(listDegenerateRules('', make(6))).toEqual([]);
    expect(repeatedEventShare(make(7))).toBeGreaterThan(REPEATED_EVENT_SHARE);
    expect(listDegenerateRules('', make(7))).toEqual(['repeated_events']);
  });

  it('is judged from MIN_REPEATED_EVENTS letter-bearing events; whitespace and punctuation events do not count', () => {
    const same = (n: number) => Array.from({ length: n }, () => ' the');
    expect(repeatedEventShare(same(MIN_REPEATED_EVENTS - 1))).toBe(0);
    expect(repeatedEventShare(same(MIN_REPEATED_EVENTS))).toBe(1);
    // code: indentation and closing braces back to back are not repeats of a word
    const code = words.flatMap((w) => [w, '    ', '}', '}', '\n']);
    expect(repeatedEventShare(code)).toBe(0);
  });
});
