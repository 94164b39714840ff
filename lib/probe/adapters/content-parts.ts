/**
 * Text in every shape the wire formats use (issue 9, decision 061): plain strings, lists of typed
 * parts (`text`, `thinking`, `reasoning.text`...), parts nested inside parts, and objects carrying
 * their text under `text` / `thinking` / `content` / `summary`. Shared by the adapters so each
 * protocol reads the same shapes the same way, and records what it does not understand.
 */

/** Output channel of a piece of text. */
export type TextChannel = 'answer' | 'reasoning';

/** Texts found in one value, per channel, plus the JSON paths of text the rules did not recognise. */
export interface CollectedText {
  answer: string;
  reasoning: string;
  unrecognizedPaths: string[];
  /** a typed `refusal` part held text: the model refused (a failure, decision 307), its text kept as a diagnostic */
  refused?: boolean;
}

/** Part types whose text is answer text unless nested in a reasoning part. */
const TEXT_TYPES = new Set(['text', 'output_text', 'text_delta']);
/** Part types whose text is reasoning. */
const REASONING_TYPES = new Set(['thinking', 'thinking_delta', 'reasoning', 'reasoning_text', 'reasoning.text', 'reasoning.summary', 'summary_text']);
/** Part types that carry no readable generated text (encrypted or opaque reasoning, media, references). */
const OPAQUE_TYPES = new Set([
  'reasoning.encrypted',
  'redacted_thinking',
  'redacted_reasoning',
  'signature',
  'signature_delta',
  'image',
  'image_url',
  'input_audio',
  'file',
  'document',
  'citation',
  'citations_delta',
  'annotation',
]);
/** Keys that hold text, in the order they are read. */
const TEXT_KEYS = ['text', 'value', 'thinking', 'reasoning', 'summary', 'content', 'refusal'] as const;
/** Keys that never hold generated text (ids, encodings, signatures, metadata). */
const META_KEYS = new Set([
  'type',
  'id',
  'index',
  'format',
  'signature',
  'data',
  'encrypted_content',
  'cache_control',
  'annotations',
  'citations',
  'status',
  'closed',
  'role',
  'name',
]);

/** True when `value` holds a non-empty string anywhere (the test for "non-empty" of unknown fields). */
export function hasText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value !== '';
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => hasText(v, depth + 1));
  return Object.values(value as Record<string, unknown>).some((v) => hasText(v, depth + 1));
}

/** A new, empty collection. */
export function emptyText(): CollectedText {
  return { answer: '', reasoning: '', unrecognizedPaths: [] };
}

/**
 * Adds the text in `value` to `out`: a string goes to `channel`; a list is read element by
 * element; a typed part goes to the channel its type names (a `text` part inside a `thinking`
 * part stays reasoning); an object without a type is read through its text keys. Any other key
 * holding text is recorded in `out.unrecognizedPaths` as `path.key` (a part of unknown type as
 * `path(type=name)`). Pure apart from `out`.
 */
export function collectText(value: unknown, channel: TextChannel, path: string, out: CollectedText, depth = 0): void {
  if (typeof value === 'string') {
    out[channel] += value;
    return;
  }
  // A number or a flag where text belongs (`content: 1234567`) is not text the probe can count
  // or a tokenizer would see the same: unknown, so recorded (decision 313).
  if (typeof value === 'number' || typeof value === 'boolean') {
    out.unrecognizedPaths.push(`${path} (${typeof value})`);
    return;
  }
  if (value === null || typeof value !== 'object' || depth > 32) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => collectText(item, channel, `${path}[${i}]`, out, depth + 1));
    return;
  }
  const part = value as Record<string, unknown>;
  const type = typeof part.type === 'string' ? part.type : undefined;
  let partChannel = channel;
  if (type !== undefined) {
    if (REASONING_TYPES.has(type)) partChannel = 'reasoning';
    else if (type === 'refusal') {
      partChannel = 'answer';
      if (hasText(part)) out.refused = true;
    } else if (OPAQUE_TYPES.has(type)) return;
    else if (!TEXT_TYPES.has(type)) {
      if (hasTextOutside(part, META_KEYS)) out.unrecognizedPaths.push(`${path}(type=${type})`);
      return;
    }
  }
  for (const [key, v] of Object.entries(part)) {
    if (META_KEYS.has(key)) continue;
    if ((TEXT_KEYS as readonly string[]).includes(key)) {
      // An untyped object's `thinking` / `reasoning` / `summary` is reasoning wherever it sits.
      const keyChannel = type === undefined && (key === 'thinking' || key === 'reasoning' || key === 'summary') ? 'reasoning' : partChannel;
      collectText(v, keyChannel, `${path}.${key}`, out, depth + 1);
    } else if (hasText(v)) {
      out.unrecognizedPaths.push(`${path}.${key}`);
    }
  }
}

function hasTextOutside(part: Record<string, unknown>, skip: Set<string>): boolean {
  return Object.entries(part).some(([k, v]) => !skip.has(k) && hasText(v));
}
