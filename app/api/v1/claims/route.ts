import { connection } from 'next/server';
import { listClaims } from '@/db/queries/claims';
import { getDb } from '@/db/shared';
import { claimsQuerySchema } from '@/lib/api/schemas';
import { corsPreflight, csvRead, handle, jsonRead, parseQuery, wantsCsv } from '@/app/api/_lib/respond';

// GET /api/v1/claims – published vendor/press figures with source and bound (not measurements).
export const GET = handle(async (request: Request) => claimsResponse(request));
export const OPTIONS = corsPreflight;

export async function claimsResponse(request: Request, format?: 'csv'): Promise<Response> {
  await connection();
  const q = parseQuery(claimsQuerySchema, new URL(request.url).searchParams);
  const items = await listClaims(getDb(), { modelSlug: q.model });
  if (wantsCsv(request, format)) {
    const cols = ['subject', 'provider', 'model', 'metric', 'value', 'unit', 'bound', 'measured_by', 'date', 'source_title', 'source_publisher', 'source_url', 'note'];
    return csvRead(request, cols, items.map((c) => [c.subject, c.provider, c.model, c.metric, c.value, c.unit, c.bound, c.measuredBy, c.claimDate, c.sourceTitle, c.sourcePublisher, c.sourceUrl, c.note]), 'tokenpace-claims.csv');
  }
  return jsonRead(request, { kind: 'claims', note: 'Published figures reported by vendors or third parties; not measured by Tokenpace.', items }, 300);
}
