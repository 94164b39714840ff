/**
 * Importer for published speed claims (vendor or press figures, e.g. "1,038 TPS/user on a DGX
 * B200"), such as lib/datasets/data/published-claims-2025.json. Claims are NOT measurements:
 * DESIGN.md §2 requires them to be stored with their source and shown apart from our own data.
 *
 * File shape (JSON object):
 * - about: free text describing the file
 * - sources: { [sourceKey]: { title, publisher, url?, published (YYYY or YYYY-MM[-DD]), note? } }
 * - claims: [{ subject, provider, system?, model, metric, value, bound, measured_by, date, source, unit?, note? }]
 *   where `system` names the serving system the claim is about (shown beside that system only),
 *   where `source` is a key of `sources` and `bound` says how to read `value` (see {@link CLAIM_BOUNDS}).
 */
import { z } from 'zod';
import { DatasetFormatError } from './format-error';

/**
 * How a claim's value bounds the true figure:
 * - eq: exactly this value; approx: approximately ("just under 300")
 * - lt / le: below / at most (an upper bound, "below 200"); gt / ge: above / at least (a lower bound)
 */
export const CLAIM_BOUNDS = ['eq', 'approx', 'lt', 'le', 'gt', 'ge'] as const;
/** One of {@link CLAIM_BOUNDS}. */
export type ClaimBound = (typeof CLAIM_BOUNDS)[number];

/**
 * Units of the metrics we know, used when a claim does not state `unit` itself.
 * output_speed_tps_per_user is TPS/user (DESIGN.md §1: tokens/s after the first chunk, as
 * Artificial Analysis defines output speed); aggregate_output_tps_per_server is aggregate
 * throughput, not TPS/user; the speed-ups are ratios.
 */
export const KNOWN_CLAIM_METRIC_UNITS: Readonly<Record<string, string>> = {
  output_speed_tps_per_user: 'tokens/s',
  aggregate_output_tps_per_server: 'tokens/s',
  ttft_ms: 'ms',
  speculative_decoding_speedup: 'ratio',
  software_speedup: 'ratio',
};

/** Error for a claims file that does not match the expected shape; names the file and field. */
export class ClaimsFormatError extends DatasetFormatError {
  constructor(fileName: string, field: string, detail: string) {
    super('claims', fileName, field, detail);
    this.name = 'ClaimsFormatError';
  }
}

const text = z.string().trim().min(1, 'must be a non-empty string');
/** YYYY, YYYY-MM or YYYY-MM-DD (claims are often only dated to the month). */
const partialDate = z
  .string()
  .regex(/^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/, 'must be a date YYYY, YYYY-MM or YYYY-MM-DD');

/** Schema of one entry of `sources`. Unknown extra fields are kept. */
export const claimSourceSchema = z.looseObject({
  title: text,
  publisher: text,
  url: z.url({ protocol: /^https?$/ }).optional(),
  published: partialDate,
  note: z.string().optional(),
});

/** Schema of one raw claim (file naming, snake_case). Unknown extra fields are kept. */
export const rawClaimSchema = z.looseObject({
  subject: text,
  provider: text,
  system: text.optional(),
  model: text,
  metric: z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be a snake_case metric name'),
  value: z.number().refine(Number.isFinite, 'must be a finite number'),
  bound: z.enum(CLAIM_BOUNDS),
  measured_by: text,
  date: partialDate,
  source: text,
  unit: text.optional(),
  note: z.string().optional(),
});

/** Schema of a whole claims file. */
export const claimsFileSchema = z.looseObject({
  about: text,
  sources: z.record(z.string(), claimSourceSchema),
  claims: z.array(rawClaimSchema),
});

/** A source a claim cites (article, post). `published` is YYYY, YYYY-MM or YYYY-MM-DD. */
export interface ClaimSource {
  title: string;
  publisher: string;
  url: string | null;
  published: string;
  note: string | null;
}

/**
 * One published claim, normalised.
 * - value in `unit` (e.g. tokens/s for output_speed_tps_per_user; "ratio" for speed-ups)
 * - bound: how `value` bounds the real figure ({@link ClaimBound})
 * - date: as published, YYYY / YYYY-MM / YYYY-MM-DD; datePrecision says which
 * - measuredBy: who produced the figure (e.g. "Artificial Analysis", "NVIDIA (self-reported)")
 * - sourceKey: key into the file's `sources`; source: that entry
 * - system: the serving system the claim is about (e.g. "NVIDIA DGX B200 (8x B200), TensorRT-LLM,
 *   self-hosted"), matched to endpoints.system; null when the file does not say
 */
export interface Claim {
  index: number;
  subject: string;
  provider: string;
  system: string | null;
  model: string;
  metric: string;
  value: number;
  unit: string;
  bound: ClaimBound;
  measuredBy: string;
  date: string;
  datePrecision: 'year' | 'month' | 'day';
  sourceKey: string;
  source: ClaimSource;
  note: string | null;
}

/** Result of {@link parseClaimsFile}. */
export interface ClaimsFile {
  about: string;
  sources: Record<string, ClaimSource>;
  claims: Claim[];
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
}

/**
 * Parse and validate a claims file.
 * @param json parsed JSON content
 * @param fileName name used in error messages (default "claims.json")
 * @returns about text, sources by key, and claims in file order (camelCase, unit resolved)
 * @throws ClaimsFormatError naming the file and the first offending field, e.g.
 *   `claims[4].bound` (not one of eq/approx/lt/le/gt/ge), `claims[2].source` (unknown source key),
 *   `claims[7].unit` (metric with no known unit and none given)
 */
export function parseClaimsFile(json: unknown, fileName = 'claims.json'): ClaimsFile {
  const parsed = claimsFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more issue(s))` : '';
    throw new ClaimsFormatError(fileName, formatPath(issue.path), issue.message + more);
  }
  const d = parsed.data;
  const sources: Record<string, ClaimSource> = {};
  for (const [key, s] of Object.entries(d.sources)) {
    sources[key] = { title: s.title, publisher: s.publisher, url: s.url ?? null, published: s.published, note: s.note ?? null };
  }
  const claims = d.claims.map((c, index): Claim => {
    const source = Object.hasOwn(sources, c.source) ? sources[c.source] : undefined;
    if (!source) {
      throw new ClaimsFormatError(
        fileName,
        `claims[${index}].source`,
        `unknown source key "${c.source}" (known: ${Object.keys(sources).join(', ') || 'none'})`,
      );
    }
    const unit = c.unit ?? KNOWN_CLAIM_METRIC_UNITS[c.metric];
    if (!unit) {
      throw new ClaimsFormatError(fileName, `claims[${index}].unit`, `metric "${c.metric}" has no known unit; give "unit"`);
    }
    const parts = c.date.split('-').length;
    return {
      index,
      subject: c.subject,
      provider: c.provider,
      system: c.system ?? null,
      model: c.model,
      metric: c.metric,
      value: c.value,
      unit,
      bound: c.bound,
      measuredBy: c.measured_by,
      date: c.date,
      datePrecision: parts === 3 ? 'day' : parts === 2 ? 'month' : 'year',
      sourceKey: c.source,
      source,
      note: c.note ?? null,
    };
  });
  return { about: d.about, sources, claims };
}
