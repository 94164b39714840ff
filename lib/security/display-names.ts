/**
 * Names people read as identities (provider names, proposed model names, account names) are
 * normalised and checked before they are stored (decision record 085), so `G\u200broq` or `Grоq`
 * with a Cyrillic о cannot pose as Groq:
 * - Unicode NFKC (fullwidth `Ｇｒｏｑ` becomes `Groq`, ligatures and compatibility forms fold);
 * - invisible characters refused: default-ignorable code points (zero-width space/joiners, word
 *   joiner, soft hyphen, variation selectors, …), other format characters (Cf: bidi controls, …),
 *   private-use and unassigned code points;
 * - mixed scripts refused (UTS #39 "highly restrictive"): all letters from one script, except Latin
 *   with Han + Hiragana/Katakana (Japanese), Han + Bopomofo (Chinese) or Han + Hangul (Korean).
 *   Digits, punctuation and spaces (Common/Inherited) go with any script.
 */

import unhomoglyph from 'unhomoglyph';

/** Scripts told apart; a letter in none of them counts as its own "other" script. */
const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Georgian',
  'Cherokee',
  'Coptic',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Khmer',
  'Mongolian',
  'Ethiopic',
  'Han',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Hangul',
  'Tifinagh',
  'Canadian_Aboriginal',
  'Runic',
  'Ogham',
  'Lisu',
  'Vai',
  'Bamum',
] as const;
const SCRIPT_PATTERNS = SCRIPTS.map((name) => [name, new RegExp(`^\\p{Script=${name}}$`, 'u')] as const);

/** Script sets that may mix (besides any single script). */
const ALLOWED_MIXES: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Co}\p{Cn}\p{Cs}]/u;
const LETTER = /^\p{L}$/u;
const COMMON = /^[\p{Script=Common}\p{Script=Inherited}]$/u;

/** The scripts of the letters of `value` (Common/Inherited letters are skipped). */
export function scriptsOf(value: string): Set<string> {
  const found = new Set<string>();
  for (const ch of value) {
    if (!LETTER.test(ch) || COMMON.test(ch)) continue;
    const hit = SCRIPT_PATTERNS.find(([, re]) => re.test(ch));
    found.add(hit ? hit[0] : `other(U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`);
  }
  return found;
}

/** Result of checkDisplayName: the normalised name, or why it is refused (a message for a 400 field error). */
export type DisplayNameCheck = { ok: true; value: string } | { ok: false; message: string };

/**
 * Normalises `raw` (NFKC, then trims and collapses runs of spaces) and checks it (see the module
 * comment). Returns `{ ok: true, value }` with the name to store, or `{ ok: false, message }`:
 * "must not contain invisible or formatting characters (U+200B)" or
 * "mixes Latin and Cyrillic letters (look-alike characters)". Length limits are the caller's.
 */
export function checkDisplayName(raw: string): DisplayNameCheck {
  const value = raw.normalize('NFKC').trim().replace(/\s+/g, ' ');
  const bad = INVISIBLE.exec(value);
  if (bad) {
    const cp = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return { ok: false, message: `must not contain invisible or formatting characters (U+${cp})` };
  }
  const scripts = scriptsOf(value);
  if (scripts.size > 1 && !ALLOWED_MIXES.some((allowed) => [...scripts].every((s) => allowed.has(s)))) {
    return { ok: false, message: `mixes ${[...scripts].join(' and ')} letters (look-alike characters); use one script` };
  }
  return { ok: true, value };
}

/**
 * Cyrillic and Greek letters that render like Latin ones (from Unicode's confusables.txt, the
 * common subset). Used to see a whole-script look-alike: an all-Cyrillic `Ѕсаlе`-style name.
 */
const LATIN_LOOKALIKES: Record<string, string> = {
  а: 'a',
  в: 'b',
  с: 'c',
  ԁ: 'd',
  е: 'e',
  һ: 'h',
  і: 'i',
  ј: 'j',
  к: 'k',
  ӏ: 'l',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  ԛ: 'q',
  г: 'r',
  ѕ: 's',
  т: 't',
  у: 'y',
  ԝ: 'w',
  х: 'x',
  ү: 'y',
  ь: 'b',
  ɡ: 'g',
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
  ω: 'w',
};

/**
 * The Latin reading of `name` (lower case) when every letter is Latin or a Latin look-alike
 * (LATIN_LOOKALIKES), else null. `Ѕсаlе` → `scale`, `Groq` → `groq`, `Наука` → `hayka`, `東京` → null.
 * Compared with existing provider names by the caller: a name whose reading equals another
 * provider's name but is spelled differently is a look-alike.
 */
export function latinSkeleton(name: string): string | null {
  let out = '';
  for (const ch of name.normalize('NFKC').toLowerCase()) {
    if (/^[a-z]$/.test(ch)) out += ch;
    else if (LATIN_LOOKALIKES[ch]) out += LATIN_LOOKALIKES[ch];
    else if (/^\p{L}$/u.test(ch)) return null;
    else out += ch;
  }
  return out;
}

/** Small capitals and other Latin letter forms that confusables.txt does not fold (IPA/phonetic block; ǫ read as q). */
const SMALL_CAPITALS: Record<string, string> = {
  ᴀ: 'a',
  ʙ: 'b',
  ᴄ: 'c',
  ᴅ: 'd',
  ᴇ: 'e',
  ꜰ: 'f',
  ɢ: 'g',
  ʜ: 'h',
  ɪ: 'i',
  ᴊ: 'j',
  ᴋ: 'k',
  ʟ: 'l',
  ᴍ: 'm',
  ɴ: 'n',
  ᴏ: 'o',
  ᴘ: 'p',
  ǫ: 'q',
  ʀ: 'r',
  ꜱ: 's',
  ᴛ: 't',
  ᴜ: 'u',
  ᴠ: 'v',
  ᴡ: 'w',
  ʏ: 'y',
  ᴢ: 'z',
};

/**
 * The confusable skeleton of a name (UTS #39 §4 "skeleton", with the npm package unhomoglyph's
 * table from Unicode's confusables.txt): NFKC, combining marks removed (`Groq\u0301`), small
 * capitals folded (`ɢʀᴏǫ`), every character mapped to its prototype (`Gr0q` → `GrOq`, `m` → `rn`),
 * lower case, then only letters and digits kept. Two names with equal skeletons look alike; compare
 * skeletons on both sides (the prototypes are not always the letters people type). Issue 19 #15.
 */
export function confusableSkeleton(name: string): string {
  // Folded before the marks go: ǫ (o with ogonek) stands for q in `ɢʀᴏǫ`, not for o.
  const folded = [...name.normalize('NFKC')].map((ch) => SMALL_CAPITALS[ch] ?? LATIN_LOOKALIKES[ch] ?? ch).join('');
  const marksGone = folded.normalize('NFD').replace(/\p{M}/gu, '');
  return unhomoglyph(marksGone)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}
