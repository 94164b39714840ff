import { ImageResponse } from 'next/og';
import { renderModelCard } from '@/app/_components/og-model-card';
import { OG_SIZE } from '@/app/_components/og-card';

export const size = OG_SIZE;
export const contentType = 'image/png';
export const alt = 'Tokenpace leaderboard of this model';

/** Open Graph image of one model's leaderboard (used by the model page and by /?model=…). */
export default async function Image({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const card = /^[a-z0-9][a-z0-9-]{0,80}$/.test(slug) ? await renderModelCard(slug) : null;
  if (!card) return new Response('unknown model', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  return new ImageResponse(card, size);
}
