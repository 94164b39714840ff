import { connection } from 'next/server';
import { z } from 'zod';
import { listModels, listWorkloads } from '@/db/queries/catalog';
import { getDb } from '@/db/shared';
import { corsPreflight, handle, jsonRead, parseQuery } from '@/app/api/_lib/respond';

// GET /api/v1/models – models with endpoint counts, and the workloads they are probed with.
export const GET = handle(async (request: Request) => {
  await connection();
  parseQuery(z.object({}), new URL(request.url).searchParams);
  const db = getDb();
  const [items, workloads] = await Promise.all([listModels(db), listWorkloads(db)]);
  return jsonRead(request, { items, workloads }, 300);
});
export const OPTIONS = corsPreflight;
