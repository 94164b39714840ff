/**
 * The text rules of decision 171 at the edge of every threshold, and the two kinds added by
 * decision 303: text without word separators judged by characters, and every event sent twice.
 */
import { describe, expect, it } from 'vitest';
import {
  COPY_SPAN_CHARS,
  COPY_SPAN_WORDS,
  copiedShare,
  listDegenerateRules,
  invisibleTokenShare,
  MAX_COPIED_SHARE,
  MAX_INVISIBLE_TOKEN_SHARE,
  MAX_OVERLAP_SHARE,
  MIN_OVERLAP_WORDS,
  overlapShare,
  MAX_TOKENS_PER_LETTER,
  MAX_WORD_CHARS,
  MIN_ASCII_WORD_SHARE,
  MIN_DENSE_WORDS,
  MIN_NGRAM_CHARS,
  MIN_NO_LETTER_CHARS,
  MIN_REPEATED_EVENTS,
  REPEATED_EVENT_SHARE,
  repeatedEventShare,
  repeatedNgramShare,
  tokensPerLetter,
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

/** Deterministic words of uniformly random lower-case letters, 2-9 letters each (mulberry32). */
function randomLetterWords(n: number, seed: number): string[] {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: n }, () =>
    Array.from({ length: 2 + Math.floor(next() * 8) }, () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(next() * 26)]).join(''),
  );
}

const PROSE =
  'The lighthouse keeper climbed the stairs every evening to light the lamp, and the ships that passed in the night trusted the beam to guide them past the rocks. One winter a fog rolled in from the sea and stayed for a week, so the fishermen wondered whether the old man had fallen ill. On the eighth morning the light shone again and the boats came home.';

describe('token-dense words (o200k inflated by letters no language writes)', () => {
  it('random letters are refused; prose in several languages, acronyms and lorem ipsum are not', () => {
    const junk = randomLetterWords(80, 7).join(' ');
    expect(tokensPerLetter(junk)).toBeGreaterThan(MAX_TOKENS_PER_LETTER);
    expect(listDegenerateRules(junk)).toEqual(['token_dense']);
    const honest = [
      PROSE,
      'Kiswahili ni lugha ya Kibantu inayozungumzwa na watu wengi katika Afrika Mashariki. Lugha hii ina historia ndefu ya biashara na utamaduni katika pwani ya bahari ya Hindi, na leo inatumika shuleni, redioni na katika serikali za nchi nyingi za eneo hilo.',
      'Suomen kieli on uralilainen kieli, jota puhuu noin viisi miljoonaa ihmista. Kielen rakenne perustuu sijamuotoihin ja pitkiin yhdyssanoihin, joten sanat voivat olla hyvin pitkia ja niiden taivutus on monipuolinen. Esimerkiksi lentokonesuihkuturbiinimoottoriapumekaanikkoaliupseerioppilas on tunnettu sana, jota opettajat kayttavat usein tunneilla, kun he haluavat nayttaa oppilaille, miten suomen kielen sanat rakentuvat pienista osista.',
      'We compared AWS GCP and OCI on TPU GPU and LPU inference with LLM APIs over HTTP SSE and gRPC, using JSON and YAML configs for the SDK, CLI and REST endpoints of each IaaS and PaaS vendor in the EU and US regions, then wrote it all up.',
      'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure dolor in reprehenderit.',
    ];
    for (const text of honest) {
      expect(tokensPerLetter(text), text.slice(0, 30)).toBeGreaterThan(0);
      expect(tokensPerLetter(text), text.slice(0, 30)).toBeLessThan(0.36);
      expect(listDegenerateRules(text), text.slice(0, 30)).toEqual([]);
    }
  });

  it('at MAX_TOKENS_PER_LETTER it passes; one single-letter word more (one token per letter) fails', () => {
    // prose plus k one-letter words: the density climbs from the prose's ~0.23 towards 1
    const withLetters = (k: number) => `${PROSE} ${Array.from({ length: k }, (_, i) => 'bcdfghjkmnpqrstvwxz'[i % 19]).join(' ')}`;
    let k = 0;
    while (tokensPerLetter(withLetters(k)) <= MAX_TOKENS_PER_LETTER) k += 1;
    expect(k).toBeGreaterThan(10);
    expect(tokensPerLetter(withLetters(k - 1))).toBeLessThanOrEqual(MAX_TOKENS_PER_LETTER);
    expect(listDegenerateRules(withLetters(k - 1))).not.toContain('token_dense');
    expect(listDegenerateRules(withLetters(k))).toContain('token_dense');
  });

  it('is judged from MIN_DENSE_WORDS words of letters', () => {
    const words = randomLetterWords(MIN_DENSE_WORDS, 11);
    expect(listDegenerateRules(words.slice(0, MIN_DENSE_WORDS - 1).join(' '))).not.toContain('token_dense');
    expect(listDegenerateRules(words.join(' '))).toContain('token_dense');
  });

  it('only where words of ASCII letters are at least MIN_ASCII_WORD_SHARE of the words: numbers, hex and other scripts are not judged', () => {
    const letters = randomLetterWords(60, 13);
    // 60 letter words of 100: at the share exactly, judged; of 101, not
    const numbers = (n: number) => Array.from({ length: n }, (_, i) => String(1000 + i * 37));
    expect(MIN_ASCII_WORD_SHARE * 100).toBe(60);
    expect(listDegenerateRules([...letters, ...numbers(40)].join(' '))).toContain('token_dense');
    expect(listDegenerateRules([...letters, ...numbers(41)].join(' '))).not.toContain('token_dense');
    // a table of numbers and a list of hashes are answers, however many tokens they take
    const table = Array.from({ length: 60 }, (_, i) => `| ${i} | ${(i * 17.25).toFixed(2)} | 0x${(i * 2654435761).toString(16)} |`).join('\n');
    expect(listDegenerateRules(table)).toEqual([]);
  });
});

describe('copied spans (decision 307: the answer sent again as new text)', () => {
  const base = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`);

  it('at MAX_COPIED_SHARE it passes; one copied word more fails', () => {
    // 110 distinct words, then their first 90 again: 90 of 200 words copied = 0.45
    const at = [...base(110), ...base(90)].join(' ');
    expect(copiedShare(at)).toBeCloseTo(MAX_COPIED_SHARE, 9);
    expect(listDegenerateRules(at)).toEqual([]);
    const over = [...base(110), ...base(91)].join(' ');
    expect(copiedShare(over)).toBeGreaterThan(MAX_COPIED_SHARE);
    expect(listDegenerateRules(over)).toEqual(['copied_spans']);
  });

  it('the whole answer twice (0.5) fails, also with its punctuation or case changed, while its 4-grams stay under the 4-gram rule', () => {
    const once = PROSE;
    expect(repeatedNgramShare(`${once} ${once}`)).toBeLessThan(0.75);
    expect(copiedShare(`${once} ${once}`)).toBeCloseTo(0.5, 2);
    expect(listDegenerateRules(`${once}\n${once}`)).toContain('copied_spans');
    const dotted = once
      .split(' ')
      .map((w) => `${w.toUpperCase()}.`)
      .join(' ');
    expect(listDegenerateRules(`${once}\n${dotted}`)).toContain('copied_spans');
  });

  it(`a run of ${COPY_SPAN_WORDS - 1} words repeated again and again is no copy; ${COPY_SPAN_WORDS} are`, () => {
    const run = (len: number) => Array.from({ length: 30 }, (_, i) => [...base(len), `x${i}`].join(' ')).join(' ');
    expect(copiedShare(run(COPY_SPAN_WORDS - 1))).toBe(0);
    expect(copiedShare(run(COPY_SPAN_WORDS))).toBeGreaterThan(0.8);
  });

  it('honest neighbours pass: a song with a chorus after each verse, code with repeated boilerplate, an answer quoting its reasoning', () => {
    const chorus =
      'Keep the light burning, keep the light burning, over the water and over the stone, keep the light burning so no one is lost and no one is left to wander alone.';
    const verses = [
      'The keeper climbed the winding stair with oil and rag and weary care, and every night she watched the bay where ships came home or slipped away.',
      'A bottle drifted to the shore with words that no one wrote before, a child had asked across the sea if anybody heard her plea.',
      'She wrote an answer, sealed it tight, and threw it out beneath the light, and every wave that rolled away carried her hope to someone far away.',
    ];
    const song = verses.map((v) => `${v}\n\n${chorus}\n\n`).join('');
    expect(copiedShare(song)).toBeGreaterThan(0.3);
    expect(listDegenerateRules(song)).toEqual([]);
    // tests sharing their set-up line and assertions, differing in the name, path and expected id
    const code = Array.from(
      { length: 12 },
      (_, i) =>
        `def test_get_${i}(self):\n    c = make_client(timeout=30, retries=3)\n    r = c.get("/items/${i}")\n    self.assertEqual(r.status, 200)\n    self.assertEqual(r.json()["id"], ${i})\n`,
    ).join('\n');
    expect(copiedShare(code)).toBeLessThan(MAX_COPIED_SHARE);
    expect(listDegenerateRules(code)).toEqual([]);
    const reasoning =
      'The user asks about the lighthouse. The keeper lit the lamp every evening so that the ships could pass the rocks safely. I will say that and add the fog.';
    expect(listDegenerateRules(`${PROSE} The keeper lit the lamp every evening so that the ships could pass the rocks safely.\n${reasoning}`)).toEqual([]);
  });

  it(`text without word separators is judged on runs of ${COPY_SPAN_CHARS} characters: Chinese prose passes, the same prose twice fails`, () => {
    expect(copiedShare(CJK)).toBe(0);
    expect(copiedShare(`${CJK}${CJK}`)).toBeCloseTo(0.5, 9);
    expect(listDegenerateRules(`${CJK}\n${CJK}`)).toContain('copied_spans');
  });
});

describe('overlapping events (decision 307: each event resends the end of the text before it)', () => {
  const word = (i: number) => ` w${i}`;

  it('a sliding window (the previous 3 words plus 1 new) is refused; one word per event and bursts of 1-4 new words pass', () => {
    const slide = Array.from({ length: 60 }, (_, i) => Array.from({ length: Math.min(i, 3) + 1 }, (_, j) => word(i - Math.min(i, 3) + j)).join(''));
    expect(overlapShare(slide)).toBeGreaterThan(0.7);
    expect(listDegenerateRules(slide.join(''), slide)).toContain('overlapping_events');
    const single = Array.from({ length: 60 }, (_, i) => word(i));
    expect(overlapShare(single)).toBe(0);
    // speculative decoding: 1-4 new words per event
    const bursts: string[] = [];
    for (let i = 0, n = 1; i < 200; i += n, n = (n % 4) + 1) bursts.push(Array.from({ length: n }, (_, j) => word(i + j)).join(''));
    expect(overlapShare(bursts)).toBe(0);
    expect(listDegenerateRules(bursts.join(''), bursts)).toEqual([]);
  });

  it('at MAX_OVERLAP_SHARE it passes; one overlapped word more fails; an overlap of one word is none', () => {
    // 100 words in events of 1 word, and e events repeating the 2 words before them (+1 new word each)
    const make = (e: number, k = MIN_OVERLAP_WORDS) => {
      const events: string[] = [];
      let n = 0;
      for (let i = 0; i < 100 - 3 * e; i++) events.push(word(n++));
      for (let i = 0; i < e; i++) {
        events.push(Array.from({ length: k }, (_, j) => word(n - k + j)).join('') + word(n));
        n++;
      }
      return events;
    };
    // e = 10: 30 words in overlapping events of which 20 overlapped; 100 − 30 + 30 = 100 words
    expect(overlapShare(make(10))).toBeCloseTo(MAX_OVERLAP_SHARE, 9);
    expect(listDegenerateRules(make(10).join(''), make(10))).toEqual([]);
    expect(overlapShare(make(11))).toBeGreaterThan(MAX_OVERLAP_SHARE);
    expect(listDegenerateRules(make(11).join(''), make(11))).toEqual(['overlapping_events']);
    expect(overlapShare(make(30, 1))).toBe(0);
  });

  it('punctuation-only repeats (closing braces) and a stuttered word are not overlaps', () => {
    const code = Array.from({ length: 40 }, (_, i) => [`${word(i)} {`, '\n}', '\n}'].join(''));
    expect(overlapShare(code)).toBe(0);
    const stutter = [...Array.from({ length: 40 }, (_, i) => word(i)), ' bye', ' bye', ' bye bye'];
    expect(overlapShare(stutter)).toBeLessThan(MAX_OVERLAP_SHARE);
  });
});

describe('invisible padding (decision 307: zero-width characters take tokens and show nothing)', () => {
  it('zero-width characters after every word are refused; Persian with its non-joiners and emoji sequences pass', () => {
    const padded = PROSE.split(' ')
      .map((w) => `${w}\u200b\u200c\u200b\u200c`)
      .join(' ');
    expect(invisibleTokenShare(padded)).toBeGreaterThan(0.5);
    expect(listDegenerateRules(padded)).toEqual(['invisible_padding']);
    const persian =
      'می‌خواهم به کتاب‌خانه بروم و کتاب‌های تازه را ببینم. آن‌ها گفتند که نمی‌توانند امروز بیایند، اما فردا می‌آیند. خانه‌ها در این شهر بزرگ‌تر از خانه‌های روستا هستند و مردم آن‌جا مهربان‌اند.';
    expect(invisibleTokenShare(persian)).toBeGreaterThan(0);
    expect(listDegenerateRules(persian)).toEqual([]);
    const emoji = 'Our family 👨‍👩‍👧‍👦 went to the beach ❤️ and saw 🏳️‍🌈 flags; the kids 👩🏽‍💻 coded while 🧑‍🍳 cooked. Great day ✌️ with friends 👍🏻 and more ❤️❤️.';
    expect(invisibleTokenShare(emoji)).toBeLessThan(MAX_INVISIBLE_TOKEN_SHARE);
    expect(listDegenerateRules(emoji)).toEqual([]);
    expect(invisibleTokenShare(PROSE)).toBe(0);
  });

  it('at MAX_INVISIBLE_TOKEN_SHARE it passes; one invisible token more fails', () => {
    // a zero-width space between two letters of "xx" takes one token of its own: find the count of
    // padded words that makes the share exactly the limit, then one more
    const text = (padded: number) =>
      PROSE.split(' ')
        .map((w, i) => (i < padded ? `${w}\u200b` : w))
        .join(' ');
    let at = 0;
    while (invisibleTokenShare(text(at + 1)) <= MAX_INVISIBLE_TOKEN_SHARE) at++;
    expect(invisibleTokenShare(text(at))).toBeLessThanOrEqual(MAX_INVISIBLE_TOKEN_SHARE);
    expect(invisibleTokenShare(text(at))).toBeGreaterThan(MAX_INVISIBLE_TOKEN_SHARE - 0.01);
    expect(listDegenerateRules(text(at))).not.toContain('invisible_padding');
    expect(invisibleTokenShare(text(at + 1))).toBeGreaterThan(MAX_INVISIBLE_TOKEN_SHARE);
    expect(listDegenerateRules(text(at + 1))).toContain('invisible_padding');
  });
});

describe('no letters (decision 307: whitespace or punctuation alone is no answer)', () => {
  it('from MIN_NO_LETTER_CHARS characters without a letter or digit; one digit or a tool call is an answer', () => {
    expect(listDegenerateRules('.'.repeat(MIN_NO_LETTER_CHARS - 1))).toEqual([]);
    expect(listDegenerateRules('.'.repeat(MIN_NO_LETTER_CHARS))).toEqual(['no_letters']);
    expect(listDegenerateRules(' \n'.repeat(150))).toContain('no_letters');
    expect(listDegenerateRules(`${' '.repeat(20)}4`)).not.toContain('no_letters');
    expect(listDegenerateRules('{}[]()::;;', [], { toolCalls: 1 })).toEqual([]);
  });
});
