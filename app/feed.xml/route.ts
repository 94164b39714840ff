import { connection } from 'next/server';
import { getDb } from '@/server/shared';
import { listNotableChanges, renderAtom } from '@/app/feed/notable-changes';
import { publicOrigin } from '@/lib/security/public-origin';

// GET /feed.xml – Atom feed of notable changes (new #1, change points, new endpoints) over the last 90 days.
export async function GET(): Promise<Response> {
  await connection();
  const now = new Date();
  const entries = await listNotableChanges(getDb(), { now, days: 90, limit: 100 });
  // Links from the configured public origin only, never from Host / X-Forwarded-* (decision record 084).
  return new Response(renderAtom(entries, publicOrigin(), now), {
    headers: { 'content-type': 'application/atom+xml; charset=utf-8', 'cache-control': 'public, max-age=300' },
  });
}
