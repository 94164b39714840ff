import { modelCardProps } from '@/app/_components/og-model-card';
import { OG_SIZE } from '@/app/_components/og-card';
import { ogImageResponse } from '@/app/_components/og-image-response';

export const size = OG_SIZE;
export const contentType = 'image/png';
export const alt = 'Tokenpace leaderboard of this model';

/** Open Graph image of one model's leaderboard (used by the model page and by /?model=…); unknown model → 404. */
export default async function Image({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  return ogImageResponse(async () => (/^[a-z0-9][a-z0-9-]{0,80}$/.test(slug) ? modelCardProps(slug) : null), 'unknown model');
}
