import { ImageResponse } from 'next/og';
import { renderModelCard } from './_components/og-model-card';
import { OG_SIZE } from './_components/og-card';

export const size = OG_SIZE;
export const contentType = 'image/png';
export const alt = 'Tokenpace leaderboard: median output speed per user';
export const dynamic = 'force-dynamic';

/** Open Graph image of the home leaderboard (default model, prose-1k, last 72 h). */
export default async function Image() {
  const card = await renderModelCard('llama-4-maverick');
  if (!card) return new Response('no headline model in the catalog', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  return new ImageResponse(card, size);
}
