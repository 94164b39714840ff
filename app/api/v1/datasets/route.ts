import { connection } from 'next/server';
import { listDatasets } from '@/db/queries/datasets';
import { getDb } from '@/db/shared';
import { corsPreflight, handle, jsonRead, parseQuery } from '@/app/api/_lib/respond';
import { z } from 'zod';

// GET /api/v1/datasets – imported third-party datasets with provenance and licence.
export const GET = handle(async (request: Request) => {
  await connection();
  parseQuery(z.object({}), new URL(request.url).searchParams);
  const items = await listDatasets(getDb());
  return jsonRead(request, { items: items.map((d) => ({ ...d, importedAt: d.importedAt.toISOString() })) }, 300);
});
export const OPTIONS = corsPreflight;
