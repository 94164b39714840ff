import { eq, sql } from 'drizzle-orm';
import { CALIBRATION_CONFIG, CALIBRATION_PROVIDER, SEED_ENDPOINTS, SEED_MODELS, SEED_PROVIDERS, fillUrlTemplate } from '@/lib/catalog/seed-catalog';
import type { Db } from './client';
import { backfillDisclosures, recordDisclosure } from './queries/disclosure-revisions';
import { endpoints, models, providers, workloads } from './schema';
import { deploymentOf } from '@/lib/catalog/endpoint-deployment';

/** A workload definition as seeded (lib/probe/workloads WORKLOADS has this shape). */
export interface SeedWorkload {
  slug: string;
  category: 'prose' | 'code' | 'math' | 'json';
  inputTokensTarget: number;
  maxOutputTokens: number;
  concurrency: number;
  scheduled: boolean;
  name?: string;
  /** one sentence for people (lib/probe/workloads) */
  description?: string;
}

export interface SeedOptions {
  workloads: SeedWorkload[];
  /** Reads an environment variable (API keys, URL placeholders); returns null when unset. */
  lookupEnv: (name: string) => string | null;
  /** When set, registers the calibration endpoint at http://127.0.0.1:<port>/v1. */
  referencePort: number | null;
}

/**
 * Idempotently upserts the seeded catalog (providers, models, workloads, seeded endpoints and the
 * calibration endpoint). Seeded endpoints become `active` when their API key variable (and any URL
 * placeholder) is set, `inactive` otherwise, `retired` when the catalog says the provider retired the
 * id; submitted endpoints are never touched. Rows are matched by slug, so an existing install keeps
 * every endpoint's id and history (a renamed provider id updates `api_model_id` in place).
 * Returns counts of what is in the catalog afterwards.
 */
export async function seedCatalog(db: Db, opts: SeedOptions): Promise<{ providers: number; endpoints: number; activeEndpoints: number }> {
  return db.transaction(async (tx) => {
    for (const p of [...SEED_PROVIDERS, { ...CALIBRATION_PROVIDER }]) {
      const kind = p.slug === CALIBRATION_PROVIDER.slug ? 'calibration' : 'provider';
      await tx
        .insert(providers)
        .values({ slug: p.slug, name: p.name, websiteUrl: p.websiteUrl, kind })
        .onConflictDoUpdate({ target: providers.slug, set: { name: p.name, websiteUrl: p.websiteUrl, kind } });
    }
    for (const { retiredOn, ...facts } of SEED_MODELS) {
      // every field of a SeedModel is a models column, but the retirement day is stored as an instant
      const values = { ...facts, retiredAt: retiredOn ? new Date(`${retiredOn}T00:00:00Z`) : null };
      const { slug: _slug, ...set } = values;
      await tx.insert(models).values(values).onConflictDoUpdate({ target: models.slug, set });
    }
    for (const w of opts.workloads) {
      const name = w.name ?? `${w.category} · ~${w.inputTokensTarget} in / ${w.maxOutputTokens} out`;
      const values = { ...w, name };
      await tx.insert(workloads).values(values).onConflictDoUpdate({ target: workloads.slug, set: values });
    }
    const providerIds = new Map((await tx.select({ id: providers.id, slug: providers.slug }).from(providers)).map((r) => [r.slug, r.id]));
    const modelIds = new Map((await tx.select({ id: models.id, slug: models.slug }).from(models)).map((r) => [r.slug, r.id]));

    for (const e of SEED_ENDPOINTS) {
      const filledUrl = fillUrlTemplate(e.baseUrl, opts.lookupEnv);
      const active = filledUrl !== null && opts.lookupEnv(e.apiKeyEnv) !== null;
      // A retired id is never probed, whatever keys are set; its row and history stay (decision 222).
      const status = e.retiredOn ? ('retired' as const) : active ? ('active' as const) : ('inactive' as const);
      const values = {
        slug: e.slug,
        providerId: providerIds.get(e.providerSlug)!,
        modelId: modelIds.get(e.modelSlug)!,
        protocol: e.protocol,
        baseUrl: filledUrl ?? e.baseUrl,
        apiModelId: e.apiModelId,
        apiKeyEnv: e.apiKeyEnv,
        ...deploymentOf(e),
        region: e.region,
        system: e.system,
        contextWindowTokens: e.contextWindowTokens,
        catalogSource: { url: e.source.url, checkedOn: e.source.checkedOn },
        retiredAt: e.retiredOn ? new Date(`${e.retiredOn}T00:00:00Z`) : null,
        pricing: e.pricing,
        probeHeaders: e.probeHeaders,
        serviceTier: e.serviceTier,
        tierObjective: e.tierObjective,
        status,
      };
      const [seeded] = await tx
        .insert(endpoints)
        .values(values)
        .onConflictDoUpdate({
          target: endpoints.slug,
          set: {
            ...values,
            // The catalog's price replaces a stored one unless the stored one was declared later (an
            // admin's `tokenpace pricing` after the catalog's date wins; decision 220).
            pricing: sql`case when excluded.pricing is null then ${endpoints.pricing} when ${endpoints.pricing} is null or (${endpoints.pricing}->>'asOf') <= (excluded.pricing->>'asOf') then excluded.pricing else ${endpoints.pricing} end`,
            updatedAt: sql`now()`,
          },
        })
        .returning({ id: endpoints.id });
      // A changed catalog fact (new engine, hardware, context window, …) is a dated revision (decision 178).
      await recordDisclosure(tx, { endpointId: seeded!.id, source: 'catalog', userId: null });
    }

    if (opts.referencePort !== null) {
      const values = {
        slug: 'tokenpace-reference-local',
        providerId: providerIds.get(CALIBRATION_PROVIDER.slug)!,
        modelId: modelIds.get('tokenpace-reference')!,
        protocol: 'openai-chat' as const,
        baseUrl: `http://127.0.0.1:${opts.referencePort}/v1`,
        apiModelId: 'tokenpace-reference',
        hardware: 'CPU (local reference server)',
        engine: 'tokenpace reference-server',
        precision: null,
        deploymentKind: 'self-hosted' as const,
        region: 'local',
        isCalibration: true,
        // The reference server accepts any prompt length: declare a 128k window so it runs the ~100k workloads too.
        contextWindowTokens: 131_072,
        calibrationTps: CALIBRATION_CONFIG.tps,
        calibrationTtftMs: CALIBRATION_CONFIG.ttftMs,
        allowPrivate: true,
        status: 'active' as const,
      };
      const [reference] = await tx
        .insert(endpoints)
        .values(values)
        .onConflictDoUpdate({ target: endpoints.slug, set: { ...values, updatedAt: sql`now()` } })
        .returning({ id: endpoints.id });
      await recordDisclosure(tx, { endpointId: reference!.id, source: 'catalog', userId: null });
    }
    // Endpoints that predate revisions (submitted ones) get their first revision once.
    await backfillDisclosures(tx);

    const all = await tx.select({ status: endpoints.status }).from(endpoints);
    const providerCount = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(providers)
      .where(eq(providers.kind, 'provider'));
    return {
      providers: providerCount[0]?.n ?? 0,
      endpoints: all.length,
      activeEndpoints: all.filter((r) => r.status === 'active').length,
    };
  });
}
