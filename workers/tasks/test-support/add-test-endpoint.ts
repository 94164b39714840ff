/**
 * Inserts one active openai-chat endpoint for a task test: a provider of its own
 * (`{slug}-co`, named `{slug} co`) and the first model of the seeded catalogue. `allowPrivate`
 * (default true) lets the SSRF guard reach a loopback test server; `apiModelId` defaults to
 * `tokenpace-reference` (the reference server's model). With `besideEndpointId`, the new endpoint
 * shares that endpoint's provider and model instead (no provider is added). Returns the endpoint
 * id. `columns` sets further endpoint columns (e.g. probeHeaders). Throws if the catalogue has no
 * model (seed it first).
 */
import type { Db } from '@/db/client';
import { eq } from 'drizzle-orm';
import { endpoints, models, providers } from '@/db/schema';

export async function addTestEndpoint(
  db: Db,
  slug: string,
  baseUrl: string,
  opts: { allowPrivate?: boolean; apiModelId?: string; besideEndpointId?: number; columns?: Partial<typeof endpoints.$inferInsert> } = {},
): Promise<number> {
  const owner = opts.besideEndpointId === undefined ? await newProviderAndFirstModel(db, slug) : await ownerOf(db, opts.besideEndpointId);
  const [ep] = await db
    .insert(endpoints)
    .values({
      slug,
      providerId: owner.providerId,
      modelId: owner.modelId,
      protocol: 'openai-chat',
      baseUrl,
      apiModelId: opts.apiModelId ?? 'tokenpace-reference',
      allowPrivate: opts.allowPrivate ?? true,
      status: 'active',
      ...opts.columns,
    })
    .returning({ id: endpoints.id });
  return ep!.id;
}

async function newProviderAndFirstModel(db: Db, slug: string): Promise<{ providerId: number; modelId: number }> {
  const [provider] = await db
    .insert(providers)
    .values({ slug: `${slug}-co`, name: `${slug} co` })
    .returning({ id: providers.id });
  const [model] = await db.select({ id: models.id }).from(models).limit(1);
  if (!provider || !model) throw new Error('addTestEndpoint: seed the catalogue first (no model)');
  return { providerId: provider.id, modelId: model.id };
}

async function ownerOf(db: Db, endpointId: number): Promise<{ providerId: number; modelId: number }> {
  const [e] = await db.select({ providerId: endpoints.providerId, modelId: endpoints.modelId }).from(endpoints).where(eq(endpoints.id, endpointId));
  if (!e) throw new Error(`addTestEndpoint: no endpoint ${endpointId}`);
  return e;
}
