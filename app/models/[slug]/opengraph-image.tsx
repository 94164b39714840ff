import { ImageResponse } from 'next/og';
import { renderModelCard } from '@/app/_components/og-model-card';
import { OG_SIZE } from '@/app/_components/og-card';

export const size = OG_SIZE;
export const contentType = 'image/png';
export const alt = 'Tokenpace leaderboard of this model';

/** Open Graph image of one model's leaderboard (used by the model page and by /?model=…). */
export default async function Image({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  return new ImageResponse(await renderModelCard(/^[a-z0-9][a-z0-9-]{0,80}$/.test(slug) ? slug : 'llama-4-maverick'), size);
}
