import { getPublicEndpoint, listWorkloads } from '@/db/queries/catalog';
import { getDb } from '@/server/shared';
import { fmt, fmtPct } from '@/app/_components/format';
import { OG_SIZE } from '@/app/_components/og-card';
import { ogImageResponse } from '@/app/_components/og-image-response';
import { listEndpointWorkloadFigures } from '@/app/_components/endpoint-window';

export const size = OG_SIZE;
export const contentType = 'image/png';
export const alt = 'Tokenpace: measured output speed of this endpoint';

/** Open Graph image of one endpoint: median output speed per workload (the leaderboard's 72 h figures) and its tags. */
export default async function Image({ params }: { params: Promise<{ id: string }> }) {
  const id = Number((await params).id);
  const db = getDb();
  // No card for an endpoint that is not public (issue 19 #14): a 404, as the page answers, not a 200 image.
  return ogImageResponse(async () => {
    const endpoint = Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? await getPublicEndpoint(db, id) : null;
    if (!endpoint) return null;
    const workloads = (await listWorkloads(db)).filter((w) => w.scheduled);
    const { figures: stats } = await listEndpointWorkloadFigures(db, { endpoint: { id, modelSlug: endpoint.modelSlug }, workloads });
    const measured = stats.filter((s) => s.outputTokensPerSecond);
    const max = Math.max(1, ...measured.map((s) => s.outputTokensPerSecond!.p50));
    const n = stats.reduce((a, s) => a + s.n, 0);
    const ok = stats.reduce((a, s) => a + s.successes, 0);
    const tags = [endpoint.hardware, endpoint.engine, endpoint.precision, endpoint.speculativeDecoding].filter(Boolean).join(' | ');
    return {
      title: `${endpoint.provider}: ${endpoint.slug}`,
      subtitle: `${endpoint.model}${tags ? ` | ${tags}` : ''}`,
      bars: measured.map((s) => ({
        label: `${s.workloadSlug} (${s.category})`,
        value: `${fmt(s.outputTokensPerSecond!.p50)} t/s`,
        fraction: s.outputTokensPerSecond!.p50 / max,
      })),
      empty: endpoint.status === 'inactive' ? 'Waiting for its API key: not measured yet' : 'No measurements in the last 72 h',
      footer: `Median TPS/user by workload, last 72 h | ${n} probes, ${fmtPct(n ? ok / n : null, 1)} success | Tokenpace`,
    };
  }, 'unknown endpoint');
}
