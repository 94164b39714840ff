import { listClaims } from '@/db/queries/claims';
import { listModels } from '@/db/queries/catalog';
import { getDb } from '@/server/shared';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { getLeaderboardAnswer } from '@/server/leaderboard';
import { boundWord, fmt, fmtClaimDate } from './format';
import type { OgCardProps } from './og-card';

/**
 * The OG card of a model's leaderboard (workload prose-1k, last 72 h): top measured endpoints as
 * bars; when nothing is measured yet, the published claims instead (labelled as claims). Null for
 * a model not in the catalog. Drawn by ./og-image-response.
 */
export async function modelCardProps(modelSlug: string): Promise<OgCardProps | null> {
  const db = getDb();
  // An unknown model is no card (404 by the caller): never URL text drawn as a model's name, and no
  // answer computed (nor stored) for it (issue 19 #5, #14).
  const models = await listModels(db);
  const model = models.find((m) => m.slug === modelSlug);
  if (!model) return null;
  const [answer, claims] = await Promise.all([getLeaderboardAnswer(db, leaderboardQuerySchema.parse({ model: modelSlug })), listClaims(db, { modelSlug })]);
  const name = model.name;
  const ranked = answer.entries.filter((e) => e.rank !== null && e.outputTokensPerSecond);
  const speedClaims = claims.filter((c) => c.metric === 'output_speed_tps_per_user');
  const max = Math.max(1, ...ranked.map((e) => e.outputTokensPerSecond!.p50), ...(ranked.length ? [] : speedClaims.map((c) => c.value)));
  const bars = ranked.length
    ? ranked.map((e) => ({
        label: `${e.rank}${e.tiedWith.length ? '=' : '.'} ${e.endpoint.slug}`,
        value: `${fmt(e.outputTokensPerSecond!.p50)} t/s`,
        fraction: e.outputTokensPerSecond!.p50 / max,
      }))
    : speedClaims
        .slice(0, 5)
        .map((c) => ({ label: `${c.provider} (claim)`, value: `${boundWord(c.bound)}${fmt(c.value)} t/s`, fraction: c.value / max, claim: true }));
  return {
    title: `Output speed per user: ${name}`,
    subtitle: ranked.length
      ? `Median TPS/user, prose workload, last 72 h, ${ranked.length} endpoints measured`
      : `Published claims (${fmtClaimDate(speedClaims[0]?.claimDate ?? '')}); no endpoint measured in the last 72 h`,
    bars,
    empty: 'No measurements or claims yet',
    footer: `Measured continuously with evidence | as of ${answer.asOf.slice(0, 16).replace('T', ' ')} UTC | snapshot ${answer.snapshotId}`,
  };
}
