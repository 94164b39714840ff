import { modelCardProps } from './_components/og-model-card';
import { OG_SIZE } from './_components/og-card';
import { ogImageResponse } from './_components/og-image-response';

export const size = OG_SIZE;
export const contentType = 'image/png';
export const alt = 'Tokenpace leaderboard: median output speed per user';
export const dynamic = 'force-dynamic';

/** Open Graph image of the home leaderboard (default model, prose-1k, last 72 h). */
export default async function Image() {
  return ogImageResponse(() => modelCardProps('llama-4-maverick'), 'no headline model in the catalog');
}
