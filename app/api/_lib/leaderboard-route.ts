import { connection } from 'next/server';
import { getDb } from '@/server/shared';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { isSealed, SEALED_AFTER_MS } from '@/lib/stats/window-stats';
import { getLeaderboardAnswerWithBody } from '@/server/leaderboard';
import { leaderboardAnswerSchema, leaderboardEntrySchema } from '@/lib/api/response-schemas';
import { requireCatalogSlugs, requireKnownRegion } from './public-reads';
import { csvRead, parseQuery, resolveAsOf, wantsCsv, type CachePolicy } from './respond';
import { signedJsonRead } from './signed-read';

/**
 * Cache lifetime of a board, fitted to the rollup cadence (one new answer per minute, precomputed a
 * few seconds after the minute): a live board is fresh until its successor is expected (asOf + 60 s
 * + 10 s for the rollup and precompute jobs), then may be served stale for a minute while a cache
 * revalidates; a past board (`at=`) no longer changes once its window has sealed (SEALED_AFTER_MS):
 * then `max-age` a year, `immutable`.
 */
function cachePolicyOf(at: string | undefined, asOf: Date, now = Date.now()): CachePolicy {
  // A sealed past board is final (decision 211): cached for good, revalidated by its strong ETag.
  if (at && isSealed(asOf.getTime(), now)) return { maxAgeSeconds: 31_536_000, immutable: true };
  // A recent one may still take late probes: fresh until it seals, then immutable.
  if (at) return { maxAgeSeconds: Math.max(1, Math.ceil((asOf.getTime() + SEALED_AFTER_MS - now) / 1000)), staleWhileRevalidateSeconds: 60 };
  const fresh = Math.round((asOf.getTime() + 70_000 - now) / 1000);
  return { maxAgeSeconds: Math.min(60, Math.max(1, fresh)), staleWhileRevalidateSeconds: 60 };
}

/**
 * Shared by /api/v1/leaderboard and /api/v1/leaderboard.csv: parse the query → 404 naming the
 * field for an unknown model or workload (before any snapshot is stored), 400 for a future `at` →
 * the answer (JSON text byte-identical to its snapshot) or CSV: one line per entry, every JSON
 * figure as its dotted path (`outputTokensPerSecond.p50`), the answer's asOf, window, snapshotId…
 * as trailing columns.
 */
export async function leaderboardResponse(request: Request, format?: 'csv'): Promise<Response> {
  await connection();
  const q = parseQuery(leaderboardQuerySchema, new URL(request.url).searchParams);
  // A future board would still change, so it could not be a citable snapshot.
  resolveAsOf(q.at, new Date());
  const db = getDb();
  await requireCatalogSlugs(db, { model: q.model, workload: q.workload });
  await requireKnownRegion(db, q.region);
  const served = await getLeaderboardAnswerWithBody(db, q);
  const policy = cachePolicyOf(q.at, served.asOf);
  // Stored bytes as they are; the snapshotId is the hash of the answer, so it is the strong ETag.
  // Signed (decision 230): the same bytes and signatures as GET /api/v1/snapshots/{snapshotId}.
  if (!wantsCsv(request, format)) return signedJsonRead(request, db, served.body, policy.maxAgeSeconds, { etag: served.etag, cache: policy, holder: served });
  const { entries, ...context } = served.answer;
  return csvRead(
    request,
    leaderboardEntrySchema,
    entries,
    `tokenpace-leaderboard-${context.model}-${context.workload}.csv`,
    {
      context: { schema: leaderboardAnswerSchema.omit({ entries: true, statistics: true, units: true }), value: context },
    },
    policy.maxAgeSeconds,
  );
}
