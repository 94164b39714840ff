import { connection } from 'next/server';
import { getDb } from '@/db/shared';
import { listNotableChanges, renderAtom } from '@/app/feed/notable-changes';

// GET /feed.xml – Atom feed of notable changes (new #1, change points, new endpoints) over the last 90 days.
export async function GET(request: Request): Promise<Response> {
  await connection();
  const now = new Date();
  const entries = await listNotableChanges(getDb(), { now, days: 90, limit: 100 });
  const url = new URL(request.url);
  const origin = `${request.headers.get('x-forwarded-proto') ?? url.protocol.replace(':', '')}://${request.headers.get('x-forwarded-host') ?? request.headers.get('host') ?? url.host}`;
  return new Response(renderAtom(entries, origin, now), {
    headers: { 'content-type': 'application/atom+xml; charset=utf-8', 'cache-control': 'public, max-age=300' },
  });
}
