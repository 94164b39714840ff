import { sql } from 'drizzle-orm';
import { connection } from 'next/server';
import { getDb } from '@/db/shared';

// GET /api/health – 200 { ok: true } when the web process can reach Postgres, else 503.
export async function GET(): Promise<Response> {
  await connection();
  try {
    await getDb().execute(sql`select 1`);
    return Response.json({ ok: true });
  } catch {
    return Response.json({ ok: false, error: { code: 'internal', message: 'database unreachable' } }, { status: 503 });
  }
}
