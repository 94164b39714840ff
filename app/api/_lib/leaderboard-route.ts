import { connection } from 'next/server';
import { getDb } from '@/db/shared';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { getLeaderboardAnswerWithBody } from '@/app/_server/leaderboard';
import { leaderboardAnswerSchema, leaderboardEntrySchema } from '@/lib/api/response-schemas';
import { requireCatalogSlugs } from './public-reads';
import { CORS_HEADERS, csvRead, parseQuery, resolveAsOf, wantsCsv } from './respond';

/** Cache lifetime of a board: a past board (`at=`) no longer changes. */
const maxAgeOf = (at: string | undefined) => (at ? 86_400 : 30);

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
  const { answer, body } = await getLeaderboardAnswerWithBody(db, q);
  if (!wantsCsv(request, format)) {
    // The snapshotId is a hash of the answer, so it serves as the ETag without hashing the body again.
    const maxAge = maxAgeOf(q.at);
    const headers = { ...CORS_HEADERS, 'content-type': 'application/json; charset=utf-8', etag: `"${answer.snapshotId}"`, 'cache-control': `public, max-age=${maxAge}, stale-while-revalidate=${maxAge * 2}` };
    if (request.headers.get('if-none-match') === headers.etag) return new Response(null, { status: 304, headers });
    return new Response(body, { status: 200, headers });
  }
  const { entries, ...context } = answer;
  return csvRead(request, leaderboardEntrySchema, entries, `tokenpace-leaderboard-${answer.model}-${answer.workload}.csv`, {
    context: { schema: leaderboardAnswerSchema.omit({ entries: true, statistics: true, units: true }), value: context },
  }, maxAgeOf(q.at));
}
