/**
 * The catalog's data files (lib/catalog/data/*.json), validated: one file per provider (its endpoints)
 * and models.json (the models: one entry per set of weights). Every fact carries where it was read:
 * `source.url` (the provider's own documentation), `source.checkedOn` (the date it was read), and,
 * when the provider's page itself was not stored, `source.via` (the copy it was read from). A price
 * carries its own source and date (lib/catalog/pricing). What could not be sourced is absent: a
 * context window or a price is `null` (unknown), never a guess (decision 220).
 */
import { serviceTierInputSchema, tierObjectiveInputSchema } from '@/lib/api/service-tier-schemas';
import { checkServiceTier } from '@/lib/probe/service-tier';
import { z } from 'zod';
import { probeHeadersSchema } from '@/lib/probe/probe-headers';
import { PROTOCOLS } from '@/lib/probe/types';
import { endpointPricingSchema } from './pricing';

const httpUrl = z
  .string()
  .url()
  .max(2000)
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL');
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'must be a real calendar date');
const slug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be kebab-case (a-z, 0-9, -)')
  .max(80);

/** Where a fact was read: the provider's documentation page and the date it was read. */
export const catalogSourceSchema = z
  .object({
    /** The provider's own documentation page that states the fact. */
    url: httpUrl,
    /** Date the fact was read, YYYY-MM-DD. */
    checkedOn: isoDate,
    /** The stored copy the fact was read from, when not the provider's page itself (e.g. a provider table mirrored by a client library's docs). */
    via: httpUrl.optional(),
    /** Anything a reviewer should know about this source (tier limits, carried-over facts). */
    note: z.string().min(1).max(500).optional(),
    /**
     * Set when no public copy confirming the id could be found on `checkedOn`'s re-check: the entry is
     * kept as carried over (never guessed anew) and `note` must say what was searched (decision 224).
     */
    unverified: z.literal(true).optional(),
  })
  .strict()
  .refine((s) => s.unverified === undefined || s.note !== undefined, { message: 'an unverified source needs a note saying what was searched', path: ['note'] });
export type CatalogSource = z.infer<typeof catalogSourceSchema>;

/** One model: one set of weights (or one proprietary model), whatever id or quantisation serves it. */
export const catalogModelSchema = z
  .object({
    slug,
    name: z.string().min(1).max(120),
    /** Family shown to visitors (Llama 4, DeepSeek V3, Qwen3, ...). */
    family: z.string().min(1).max(60),
    creator: z.string().min(1).max(60),
    /** `open`: published weights, served by many providers; `proprietary`: its maker's API (and resellers). */
    weights: z.enum(['open', 'proprietary']),
    /** Identity of the weights (model card) — the equivalence key of decision 221. */
    weightsUrl: httpUrl,
    description: z.string().min(1).max(400),
    source: catalogSourceSchema,
    /** Set when the model is retired from the catalog (kept with its history, no longer probed). */
    retiredOn: isoDate.optional(),
  })
  .strict();
export type CatalogModel = z.infer<typeof catalogModelSchema>;

/** One endpoint of a provider file. Provider-wide defaults (base URL, system) apply when omitted. */
export const catalogEndpointSchema = z
  .object({
    /** Stable natural key: a provider renaming its id changes `apiModelId` only, so history stays on this row. */
    slug,
    /** Slug of the model (models.json) whose weights this endpoint serves. */
    model: slug,
    protocol: z.enum(PROTOCOLS),
    /** Overrides the provider's base URL; may hold ${VAR} placeholders filled from the environment. */
    baseUrl: z.string().min(1).max(500).optional(),
    /** The provider's own id for the model, exactly as its API takes it. */
    apiModelId: z.string().min(1).max(200),
    /** Declared context window, tokens; null when the provider's page did not state it (unknown). */
    contextWindowTokens: z.number().int().positive().max(100_000_000).nullable(),
    /** Declared precision/quantisation (FP8, BF16, FP4, ...); null when the provider does not say. */
    precision: z.string().min(1).max(40).nullable(),
    hardware: z.string().min(1).max(120).nullable(),
    engine: z.string().min(1).max(120).nullable(),
    speculativeDecoding: z.string().min(1).max(120).nullable(),
    deploymentKind: z.enum(['shared', 'dedicated', 'self-hosted']),
    region: z.string().min(1).max(60).nullable(),
    /** Overrides the provider's serving-system name (claims are matched to it, decision 073). */
    system: z.string().min(1).max(200).optional(),
    /** Where base URL, protocol, id and context window were read. */
    source: catalogSourceSchema,
    /** Published price with its own source and date; null when none was found (unknown, never 0). */
    pricing: endpointPricingSchema.nullable(),
    /** Set when the provider retired the model or id: the endpoint stays listed with its history, never probed. */
    retiredOn: isoDate.optional(),
    retiredNote: z.string().min(1).max(300).optional(),
    /** Headers added to this endpoint's probes where the provider's terms ask for them (decision 174); none by default. */
    probeHeaders: probeHeadersSchema.optional(),
    /**
     * The service tier this endpoint asks for (decision 262): a documented parameter and value,
     * checked against the protocol below; absent: the provider's default tier. A tier is listed only
     * with the page that documents it (`source`) and, when it has one, its published objective.
     */
    serviceTier: serviceTierInputSchema.optional(),
    /** The provider's published objective for the tier, with the page that publishes it (`sourceUrl`); absent: none published. */
    tierObjective: tierObjectiveInputSchema.optional(),
  })
  .strict()
  .refine((e) => e.retiredNote === undefined || e.retiredOn !== undefined, { message: 'retiredNote needs retiredOn', path: ['retiredNote'] })
  .superRefine((e, ctx) => {
    const issue = e.serviceTier ? checkServiceTier(e.protocol, e.serviceTier) : null;
    if (issue) ctx.addIssue({ code: 'custom', path: ['serviceTier', 'value'], message: issue });
    if (e.tierObjective && !e.serviceTier)
      ctx.addIssue({ code: 'custom', path: ['tierObjective'], message: 'a tier objective needs the serviceTier it is published for' });
  });
export type CatalogEndpoint = z.infer<typeof catalogEndpointSchema>;

/** One provider file: the provider, how its key is named, its defaults and its endpoints. */
export const catalogProviderFileSchema = z
  .object({
    provider: z
      .object({
        slug,
        name: z.string().min(1).max(80),
        websiteUrl: httpUrl,
        /** Environment variable holding the operator's key; every endpoint of the provider is inactive until it is set. */
        apiKeyEnv: z.string().regex(/^[A-Z][A-Z0-9_]*$/, 'must be an environment variable name (A-Z, 0-9, _)'),
        /** Further variables the key needs, in words (README key table). */
        keyNote: z.string().min(1).max(300).optional(),
        baseUrl: z.string().min(1).max(500),
        /** Serving-system name of the provider's API (e.g. "Groq API"). */
        system: z.string().min(1).max(200),
      })
      .strict(),
    endpoints: z.array(catalogEndpointSchema).min(1).max(200),
  })
  .strict();
export type CatalogProviderFile = z.infer<typeof catalogProviderFileSchema>;

export const catalogModelsFileSchema = z.object({ models: z.array(catalogModelSchema).min(1).max(500) }).strict();

/** One endpoint with the provider's defaults applied (what the seed writes). */
export interface ResolvedCatalogEndpoint extends Omit<CatalogEndpoint, 'baseUrl' | 'system'> {
  providerSlug: string;
  baseUrl: string;
  system: string;
  apiKeyEnv: string;
}

/** The whole catalog after validation and cross-checks. */
export interface Catalog {
  models: CatalogModel[];
  providers: Array<CatalogProviderFile['provider']>;
  endpoints: ResolvedCatalogEndpoint[];
}

/**
 * Validates the catalog's files and their cross-references: each file against its schema, unique
 * model, provider and endpoint slugs, every endpoint's model in models.json, no two endpoints of one
 * provider with the same (base URL, API model id). Throws an Error listing every problem as
 * `<file>: <path>: <message>` (a data change that breaks one is caught by the catalog test and at
 * start, before anything is seeded).
 * @param files `{ name, data }` per JSON file; `models.json` is the models file, every other one a provider
 */
export function parseCatalog(files: Array<{ name: string; data: unknown }>): Catalog {
  const problems: string[] = [];
  const models: CatalogModel[] = [];
  const providerFiles: Array<{ name: string; file: CatalogProviderFile }> = [];
  for (const f of files) {
    const schema = f.name === 'models.json' ? catalogModelsFileSchema : catalogProviderFileSchema;
    const r = schema.safeParse(f.data);
    if (!r.success) {
      for (const i of r.error.issues) problems.push(`${f.name}: ${i.path.join('.') || '(root)'}: ${i.message}`);
      continue;
    }
    if (f.name === 'models.json') models.push(...(r.data as z.infer<typeof catalogModelsFileSchema>).models);
    else providerFiles.push({ name: f.name, file: r.data as CatalogProviderFile });
  }
  const modelSlugs = new Set<string>();
  for (const m of models) {
    if (modelSlugs.has(m.slug)) problems.push(`models.json: ${m.slug}: duplicate model slug`);
    modelSlugs.add(m.slug);
  }
  const providerSlugs = new Set<string>();
  const endpointSlugs = new Set<string>();
  const endpoints: ResolvedCatalogEndpoint[] = [];
  for (const { name, file } of providerFiles) {
    const p = file.provider;
    if (`${p.slug}.json` !== name) problems.push(`${name}: provider.slug: file must be named after the provider slug (${p.slug}.json)`);
    if (providerSlugs.has(p.slug)) problems.push(`${name}: provider.slug: duplicate provider slug ${p.slug}`);
    providerSlugs.add(p.slug);
    const targets = new Set<string>();
    file.endpoints.forEach((e, i) => {
      if (endpointSlugs.has(e.slug)) problems.push(`${name}: endpoints.${i}.slug: duplicate endpoint slug ${e.slug}`);
      endpointSlugs.add(e.slug);
      if (!modelSlugs.has(e.model)) problems.push(`${name}: endpoints.${i}.model: unknown model ${e.model} (not in models.json)`);
      const baseUrl = e.baseUrl ?? p.baseUrl;
      // the same model id at the same URL is another endpoint when it asks for another tier (decision 262)
      const target = `${baseUrl}|${e.apiModelId}|${e.serviceTier ? `${e.serviceTier.parameter}=${e.serviceTier.value}` : ''}`;
      if (targets.has(target)) problems.push(`${name}: endpoints.${i}.apiModelId: ${e.apiModelId} at ${baseUrl} is listed twice`);
      targets.add(target);
      endpoints.push({ ...e, providerSlug: p.slug, baseUrl, system: e.system ?? p.system, apiKeyEnv: p.apiKeyEnv });
    });
  }
  if (problems.length > 0) throw new Error(`Invalid catalog:\n  ${problems.join('\n  ')}`);
  return { models, providers: providerFiles.map((f) => f.file.provider), endpoints };
}
