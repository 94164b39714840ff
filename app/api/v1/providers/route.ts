import { connection } from 'next/server';
import { z } from 'zod';
import { listProviders } from '@/db/queries/catalog';
import { getDb } from '@/db/shared';
import { corsPreflight, handle, jsonRead, parseQuery } from '@/app/api/_lib/respond';

// GET /api/v1/providers – providers with endpoint counts (kind "calibration" marks our reference servers).
export const GET = handle(async (request: Request) => {
  await connection();
  parseQuery(z.object({}), new URL(request.url).searchParams);
  return jsonRead(request, { items: await listProviders(getDb()) }, 300);
});
export const OPTIONS = corsPreflight;
