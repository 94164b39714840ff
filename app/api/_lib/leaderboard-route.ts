import { connection } from 'next/server';
import { getDb } from '@/db/shared';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { getLeaderboardAnswerWithBody } from '@/app/_server/leaderboard';
import { ApiError, CORS_HEADERS, csvRead, jsonRead, parseQuery, wantsCsv } from './respond';

const num = (v: number | null | undefined) => (v === null || v === undefined ? null : Math.round(v * 1000) / 1000);

/**
 * Shared by /api/v1/leaderboard and /api/v1/leaderboard.csv: parse the query → the answer (JSON text
 * byte-identical to its snapshot) or CSV with units in the column names.
 */
export async function leaderboardResponse(request: Request, format?: 'csv'): Promise<Response> {
  await connection();
  const q = parseQuery(leaderboardQuerySchema, new URL(request.url).searchParams);
  // A future board would still change, so it could not be a citable snapshot.
  if (q.at && Date.parse(q.at) > Date.now() + 60_000) throw new ApiError('bad_request', 'at: must not be in the future', 'at');
  const { answer, body } = await getLeaderboardAnswerWithBody(getDb(), q);
  if (!wantsCsv(request, format)) {
    // The snapshotId is a hash of the answer, so it serves as the ETag without hashing the body again.
    const maxAge = q.at ? 86_400 : 30;
    const headers = { ...CORS_HEADERS, 'content-type': 'application/json; charset=utf-8', etag: `"${answer.snapshotId}"`, 'cache-control': `public, max-age=${maxAge}, stale-while-revalidate=${maxAge * 2}` };
    if (request.headers.get('if-none-match') === headers.etag) return new Response(null, { status: 304, headers });
    return new Response(body, { status: 200, headers });
  }
  const cols = [
    'rank', 'tied_band', 'provider', 'endpoint', 'endpoint_id', 'kind', 'deployment_kind', 'hardware', 'engine', 'precision', 'speculative_decoding',
    'n', 'successes', 'samples', 'success_rate_fraction', 'output_speed_p5_tokens_per_s', 'output_speed_p25_tokens_per_s', 'output_speed_p50_tokens_per_s', 'output_speed_p75_tokens_per_s', 'output_speed_p95_tokens_per_s',
    'median_ci_low_tokens_per_s', 'median_ci_high_tokens_per_s',
    'ttft_p50_ms', 'ttft_p95_ms', 'ttfat_p50_ms', 'e2e_p50_ms', 'e2e_p95_ms', 'as_of', 'window_hours', 'model', 'workload', 'basis', 'snapshot_id',
  ];
  const rows = answer.entries.map((e) => [
    e.rank, e.band, e.endpoint.provider, e.endpoint.slug, e.endpoint.id, e.endpoint.kind, e.endpoint.deploymentKind, e.endpoint.hardware, e.endpoint.engine,
    e.endpoint.precision, e.endpoint.speculativeDecoding, e.n, e.successes, e.samples, num(e.successRate),
    num(e.outputTokensPerSecond?.p5), num(e.outputTokensPerSecond?.p25), num(e.outputTokensPerSecond?.p50), num(e.outputTokensPerSecond?.p75), num(e.outputTokensPerSecond?.p95),
    num(e.outputTokensPerSecondMedianCi?.low), num(e.outputTokensPerSecondMedianCi?.high),
    num(e.ttftMs?.p50), num(e.ttftMs?.p95), num(e.ttfatMs?.p50), num(e.e2eMs?.p50), num(e.e2eMs?.p95),
    answer.asOf, answer.windowHours, answer.model, answer.workload, answer.basis, answer.snapshotId,
  ]);
  return csvRead(request, cols, rows, `tokenpace-leaderboard-${answer.model}-${answer.workload}.csv`);
}
export { jsonRead };
