import { connection } from 'next/server';
import { listRegions } from '@/db/queries/operations';
import { getDb } from '@/server/shared';
import { emptyQuerySchema } from '@/lib/api/schemas';
import { corsPreflight, handle, jsonRead, parseQuery } from '@/app/api/_lib/respond';

// GET /api/v1/regions – worker regions with measurement counts, last measurement and live workers.
export const GET = handle(async (request: Request) => {
  await connection();
  parseQuery(emptyQuerySchema, new URL(request.url).searchParams);
  const items = await listRegions(getDb(), new Date());
  return jsonRead(request, { items }, 60);
});

export const OPTIONS = corsPreflight;
