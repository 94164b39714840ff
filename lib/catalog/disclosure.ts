/**
 * Declared disclosure of an endpoint (issue 20 item 5, decision 178): the metadata its owner (or the
 * catalog) declares about how it is served, kept as dated revisions so every measurement can name
 * the disclosure in force when it was taken and a level shift on a history chart can be read
 * against a declared change (a new engine, a move to other hardware).
 *
 * The fields are the declared ones of the endpoint row (db/schema.ts `endpoints`); probe targets
 * (URL, protocol, key) and prices are not disclosure: prices have their own dated source.
 */

/** The declared fields of a revision, in the order they are shown. */
export const DISCLOSURE_FIELDS = [
  'modelSlug',
  'apiModelId',
  'hardware',
  'gpuCount',
  'engine',
  'precision',
  'speculativeDecoding',
  'draftLength',
  'deploymentKind',
  'region',
  'system',
  'contextWindowTokens',
] as const;

export type DisclosureField = (typeof DISCLOSURE_FIELDS)[number];

/**
 * One revision's values. Text fields as declared (null = undeclared); `gpuCount` accelerators,
 * `draftLength` tokens, `contextWindowTokens` tokens; `modelSlug` the model (its weights, decision
 * 221) and `apiModelId` the provider's id of the served version.
 */
export interface DisclosureValues {
  modelSlug: string;
  apiModelId: string;
  hardware: string | null;
  gpuCount: number | null;
  engine: string | null;
  precision: string | null;
  speculativeDecoding: string | null;
  draftLength: number | null;
  deploymentKind: 'shared' | 'dedicated' | 'self-hosted' | null;
  region: string | null;
  system: string | null;
  contextWindowTokens: number | null;
}

/** Who made a revision: the catalog seed, the owner's submission or edit, an admin, or the first record of an existing endpoint. */
export const DISCLOSURE_SOURCES = ['catalog', 'submission', 'owner_edit', 'admin', 'backfill'] as const;
export type DisclosureSource = (typeof DISCLOSURE_SOURCES)[number];

/** Human labels of the fields (endpoint page, revision table). */
export const DISCLOSURE_FIELD_LABELS: Record<DisclosureField, string> = {
  modelSlug: 'Model',
  apiModelId: 'API model id',
  hardware: 'Hardware',
  gpuCount: 'GPUs',
  engine: 'Engine',
  precision: 'Precision',
  speculativeDecoding: 'Speculative decoding',
  draftLength: 'Draft length',
  deploymentKind: 'Tier',
  region: 'Region',
  system: 'System',
  contextWindowTokens: 'Context window',
};

/** Picks the disclosure fields of any row that carries them (extra keys ignored; absent ones read as null). */
export function disclosureOf(row: Partial<Record<DisclosureField, unknown>> & { modelSlug: string; apiModelId: string }): DisclosureValues {
  const out: Record<string, unknown> = {};
  for (const f of DISCLOSURE_FIELDS) out[f] = row[f] ?? null;
  return out as unknown as DisclosureValues;
}

/** Fields whose values differ between two revisions (`before` null: every declared field of `after`). */
export function changedDisclosureFields(before: DisclosureValues | null, after: DisclosureValues): DisclosureField[] {
  if (before === null) return DISCLOSURE_FIELDS.filter((f) => after[f] !== null);
  return DISCLOSURE_FIELDS.filter((f) => (before[f] ?? null) !== (after[f] ?? null));
}

/**
 * The revision nearest a day (YYYY-MM-DD) among `revisions` whose effective day lies within
 * `maxDays` days of it (change points are dated by day and may land up to ⌊minSegmentLength/2⌋
 * days early, lib/stats/change-points); null when none does. Ties go to the earlier revision.
 */
export function revisionNear<T extends { effectiveFrom: string }>(revisions: T[], day: string, maxDays: number): T | null {
  const at = Date.parse(`${day}T00:00:00Z`);
  let best: { r: T; d: number } | null = null;
  for (const r of revisions) {
    const revDay = Date.parse(`${r.effectiveFrom.slice(0, 10)}T00:00:00Z`);
    const d = Math.abs(revDay - at) / 86_400_000;
    if (d <= maxDays && (best === null || d < best.d)) best = { r, d };
  }
  return best?.r ?? null;
}

/**
 * How far (days) a change point and a revision may lie apart to be read together: the change-point
 * detector's minimum segment (3 days, lib/stats/change-points), which also bounds how early it may
 * date a new level.
 */
export const CHANGE_POINT_REVISION_DAYS = 3;
