/**
 * Repeated keys in one JSON object (decision 318). RFC 8259 §4: "The names within an object
 * SHOULD be unique"; when they are not, "many implementations report the last name/value pair
 * only. Other implementations report an error or fail to parse the object". `JSON.parse` keeps
 * the last value; another reader keeps the first: an event saying `"content":"a","content":"b"`
 * says two texts, and which one was generated (and counted by the provider) is unknown.
 *
 * The scan runs on the text of every event of every stream, after `JSON.parse` accepted it: one
 * pass over the characters (strings skipped with `indexOf`), the containers' state kept in arrays
 * reused by depth, keys compared in a list up to LIST_KEYS keys and in a Set beyond. About the
 * cost of JSON.parse of the same text (bench/repeated-keys.ts).
 */

/** Objects with at most this many keys compare a new key against a list; larger ones use a Set. */
const LIST_KEYS = 16;

/**
 * The JSON path (`choices[0].delta.content`, as elsewhere in the evidence) of the first key that
 * an object of `text` repeats, or null when no object repeats a key. Keys are compared as
 * `JSON.parse` reads them (`"a"` and `"\u0061"` are one key). `text` must be valid JSON (the
 * caller parsed it); on other text the answer is meaningless but the scan still ends. Linear in
 * the length of `text`.
 */
export function findRepeatedKey(text: string): string | null {
  // Per open container, by depth: object or array, keys so far, current key, element index, expecting a key.
  const isObject: boolean[] = [];
  const keyLists: string[][] = [];
  const keySets: Array<Set<string> | null> = [];
  const currentKey: string[] = [];
  const index: number[] = [];
  const expectKey: boolean[] = [];
  let depth = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // The string's end: the next quote not escaped by an odd run of backslashes.
      let end = text.indexOf('"', i + 1);
      while (end !== -1) {
        let slashes = 0;
        for (let k = end - 1; text.charCodeAt(k) === 0x5c /* \ */; k--) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end === -1) return null;
      const top = depth - 1;
      if (top >= 0 && isObject[top] && expectKey[top]) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        const list = keyLists[top]!;
        let set = keySets[top] ?? null;
        if (set !== null ? set.has(key) : list.includes(key)) {
          currentKey[top] = key;
          return pathOf(depth, isObject, currentKey, index);
        }
        if (set === null && list.length >= LIST_KEYS) set = keySets[top] = new Set(list);
        if (set !== null) set.add(key);
        else list.push(key);
        currentKey[top] = key;
        expectKey[top] = false;
      }
      i = end + 1;
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const object = c === 0x7b;
      isObject[depth] = object;
      expectKey[depth] = object;
      index[depth] = 0;
      currentKey[depth] = '';
      if (keyLists[depth] === undefined) keyLists[depth] = [];
      else keyLists[depth]!.length = 0;
      keySets[depth] = null;
      depth++;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (depth > 0) depth--;
    } else if (c === 0x2c /* , */ && depth > 0) {
      if (isObject[depth - 1]) expectKey[depth - 1] = true;
      else index[depth - 1]!++;
    }
    i++;
  }
  return null;
}

/** The path of the value being read in the `depth` open containers. */
function pathOf(depth: number, isObject: boolean[], currentKey: string[], index: number[]): string {
  let path = '';
  for (let d = 0; d < depth; d++) {
    if (isObject[d]) path += path === '' ? currentKey[d] : `.${currentKey[d]}`;
    else path += `[${index[d]}]`;
  }
  return path;
}

/** The evidence path of a repeated key (WireEvent.unrecognizedPaths), e.g. `choices[0].delta.content (repeated key)`. */
export function repeatedKeyPath(text: string): string | null {
  const at = findRepeatedKey(text);
  return at === null ? null : `${at === '' ? '(top)' : at} (repeated key)`;
}
