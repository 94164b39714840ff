/**
 * "Does this slug exist?" questions of the public API, so an unknown model, workload or provider
 * is a 404 naming the field instead of an empty answer (and no snapshot of a board that cannot
 * exist is stored). Listed models and providers only: an unlisted proposal is not public.
 *
 * The slug → id maps are cached per process for 60 s; a miss re-reads them once before answering
 * "unknown", so a model added a second ago is found and the leaderboard's hot path stays one map
 * lookup.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../client';
import { models, providers, workloads } from '../schema';

/** The catalog kinds a public query may name by slug. */
export type CatalogKind = 'model' | 'workload' | 'provider';

const TTL_MS = 60_000;
let cache: { at: number; maps: Record<CatalogKind, Map<string, number>> } | null = null;

async function loadMaps(db: Db): Promise<Record<CatalogKind, Map<string, number>>> {
  const [m, w, p] = await Promise.all([
    db.select({ id: models.id, slug: models.slug }).from(models).where(eq(models.listed, true)),
    db.select({ id: workloads.id, slug: workloads.slug }).from(workloads),
    db.select({ id: providers.id, slug: providers.slug }).from(providers).where(eq(providers.listed, true)),
  ]);
  const toMap = (rows: Array<{ id: number; slug: string }>) => new Map(rows.map((r) => [r.slug, r.id]));
  return { model: toMap(m), workload: toMap(w), provider: toMap(p) };
}

/**
 * Resolves the given slugs to ids. Returns `{ ids }` with an id per given kind, or `{ unknown }`
 * naming the first kind (in the order given) whose slug is not in the catalog. `now` is the
 * cache clock (ms).
 */
export async function resolveCatalogSlugs(
  db: Db,
  slugs: Partial<Record<CatalogKind, string | undefined>>,
  now = Date.now(),
): Promise<{ ids: Partial<Record<CatalogKind, number>>; unknown: null } | { ids: null; unknown: { kind: CatalogKind; slug: string } }> {
  const given = (Object.entries(slugs) as Array<[CatalogKind, string | undefined]>).filter((e): e is [CatalogKind, string] => e[1] !== undefined);
  const attempt = (maps: Record<CatalogKind, Map<string, number>>) => {
    const ids: Partial<Record<CatalogKind, number>> = {};
    for (const [kind, slug] of given) {
      const id = maps[kind].get(slug);
      if (id === undefined) return { ids: null, unknown: { kind, slug } } as const;
      ids[kind] = id;
    }
    return { ids, unknown: null } as const;
  };
  if (cache && now - cache.at < TTL_MS) {
    const hit = attempt(cache.maps);
    if (hit.unknown === null) return hit;
  }
  cache = { at: now, maps: await loadMaps(db) };
  return attempt(cache.maps);
}
