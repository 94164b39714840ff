/**
 * Token counts wherever a server puts them (issue 22): each adapter reads usage in the places its
 * protocol's servers use (decision 191) and asks this module for counts anywhere else. A count in
 * a place the adapter does not know is recorded by JSON path (`evidence.unrecognizedPaths`) and
 * makes the measurement not rankable, like unknown text: the count the probe read may not be the
 * provider's report of this output.
 */
import { isRecord } from './normalize';

/** Keys naming an output token count, compared lower-cased without `_`. */
const OUTPUT_COUNT_KEY = /^(completion|output|candidates|generated|generation|response|predicted)tokens?(count)?$|^evalcount$/;
/** Keys naming a usage report. */
const USAGE_KEY = /^(usage|usagemetadata|tokenusage|token_usage)$/i;

function hasCount(value: unknown, depth = 0): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (!isRecord(value) || depth > 4) return false;
  return Object.values(value).some((v) => hasCount(v, depth + 1));
}

/**
 * JSON paths of output counts or usage reports inside `value` (rooted at `path`, '' for the
 * top) that are not at a known place: an object under a usage-named key (`usage`, `usageMetadata`,
 * `token_usage`) holding numbers, or a number under an output-count key (`completion_tokens`,
 * `output_tokens`, `candidatesTokenCount`, `generated_tokens`, `eval_count`...). `isKnown(path)`
 * says whether a path is a place the adapter reads (its subtree is then skipped). Paths use `.key`
 * and `[i]`, as elsewhere in the evidence. At most 8 paths. Pure.
 */
export function listUnknownUsagePaths(value: unknown, isKnown: (path: string) => boolean, path = ''): string[] {
  const out: string[] = [];
  const walk = (v: unknown, p: string, depth: number) => {
    if (out.length >= 8 || depth > 12) return;
    if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, `${p}[${i}]`, depth + 1));
      return;
    }
    if (!isRecord(v)) return;
    for (const [key, child] of Object.entries(v)) {
      const childPath = p === '' ? key : `${p}.${key}`;
      if (isKnown(childPath)) continue;
      if (USAGE_KEY.test(key) && isRecord(child) && hasCount(child)) out.push(childPath);
      else if (typeof child === 'number' && OUTPUT_COUNT_KEY.test(key.toLowerCase().replace(/_/g, ''))) out.push(childPath);
      else walk(child, childPath, depth + 1);
    }
  };
  walk(value, path, 0);
  return out;
}

/** Keys naming a token count of any kind (output, input, total, reasoning, cache), lower-cased without `_`. */
const TOKEN_COUNT_KEY = /tokens$|tokencount$/;

/**
 * JSON paths of token counts in a usage report (`usage`, rooted at `path`) that are present but
 * not a count: a string (`"4000"`), a negative or fractional number, a flag. The probe cannot
 * read such a report, and silently reading none would let the o200k count stand in for a report
 * the provider did make (decision 313). Nested objects (`completion_tokens_details`) are walked
 * two levels deep; null stands for "not reported" and is fine. At most 8 paths. Pure.
 */
export function listUnreadableCounts(usage: Record<string, unknown>, path: string): string[] {
  const out: string[] = [];
  const walk = (v: Record<string, unknown>, p: string, depth: number) => {
    for (const [key, child] of Object.entries(v)) {
      if (out.length >= 8) return;
      const childPath = `${p}.${key}`;
      if (isRecord(child)) {
        if (depth < 2) walk(child, childPath, depth + 1);
      } else if (child !== null && child !== undefined && TOKEN_COUNT_KEY.test(key.toLowerCase().replace(/_/g, ''))) {
        if (!(typeof child === 'number' && Number.isSafeInteger(child) && child >= 0)) out.push(`${childPath} (${JSON.stringify(child).slice(0, 20)})`);
      }
    }
  };
  walk(usage, path, 0);
  return out;
}

/**
 * String fields real usage reports carry, each a single word (a tier, a modality, a traffic type,
 * a finish word): Anthropic `usage.service_tier` (Messages API usage), Gemini
 * `ModalityTokenCount.modality` (`promptTokensDetails[]` and the other `*TokensDetails` lists),
 * Vertex AI `UsageMetadata.trafficType`, SambaNova's `usage.stop_reason` (case C12).
 */
const USAGE_WORD_KEYS = new Set(['service_tier', 'modality', 'trafficType', 'traffic_type', 'stop_reason']);
/** What a usage word looks like: one identifier of at most 40 characters, no spaces. */
const USAGE_WORD = /^[A-Za-z][\w.:-]{0,39}$/;

/**
 * JSON paths of text in a usage report (`usage`, rooted at `path`): any string value, at any
 * depth (nested `*_details` objects, Gemini's modality lists), except a single word under a key
 * of USAGE_WORD_KEYS and keys `skip` says another rule judges (the count rules above). Counts
 * belong in a usage report, not text: text there is something the stream says that the probe
 * does not read (decision 318). Numbers (Groq's `queue_time`, SambaNova's timings), flags and
 * null are not text. Recorded as `path.key (text)`; at most 8 paths. Pure.
 */
export function listUsageText(usage: unknown, path: string, skip: (key: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const walk = (v: unknown, p: string, key: string, depth: number) => {
    if (out.length >= 8) return;
    if (typeof v === 'string') {
      if (v !== '' && !skip(key) && !(USAGE_WORD_KEYS.has(key) && USAGE_WORD.test(v))) out.push(`${p} (text)`);
      return;
    }
    if (depth > 6 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) v.forEach((item, i) => walk(item, `${p}[${i}]`, key, depth + 1));
    else for (const [k, child] of Object.entries(v)) walk(child, `${p}.${k}`, k, depth + 1);
  };
  if (isRecord(usage)) for (const [k, child] of Object.entries(usage)) walk(child, `${path}.${k}`, k, 1);
  return out;
}

/** True for a key naming a token count (the keys listUnreadableCounts judges). */
export function isTokenCountKey(key: string): boolean {
  return TOKEN_COUNT_KEY.test(key.toLowerCase().replace(/_/g, ''));
}
