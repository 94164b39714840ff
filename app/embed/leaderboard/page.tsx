import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { findUnknownBoardField } from '@/server/board-subject';
import { listClaims } from '@/db/queries/claims';
import { listModels } from '@/db/queries/catalog';
import { getDb } from '@/server/shared';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { getLeaderboardAnswer } from '@/server/leaderboard';
import { fmt, fmtUtc, fmtRange } from '@/app/_components/format';
import { IntervalChart } from '@/app/_components/interval-chart';
import { rankingRows } from '@/app/_components/ranking-rows';
import { DataTable } from '@/app/_components/data-table';

export const metadata: Metadata = { title: 'Leaderboard (embed)' };
type Search = Promise<Record<string, string | string[] | undefined>>;
const one = (v: string | string[] | undefined) => (typeof v === 'string' ? v : undefined);

/**
 * Embeddable ranking chart for iframes: /embed/leaderboard?model=…&workload=…&window=72h[&claims=0].
 * Chart with tie bands and claim markers, the table alternative in a disclosure, attribution link.
 */
export default async function EmbedLeaderboard({ searchParams }: { searchParams: Search }) {
  await connection();
  const sp = await searchParams;
  const parsed = leaderboardQuerySchema.safeParse({ model: one(sp.model), workload: one(sp.workload), window: one(sp.window) });
  const q = parsed.success ? parsed.data : leaderboardQuerySchema.parse({});
  const db = getDb();
  // Unknown model or workload: 404 before anything is computed or stored, URL text never drawn (issue 19 #5, #14).
  if (await findUnknownBoardField(db, q)) notFound();
  const [answer, models, claims] = await Promise.all([
    getLeaderboardAnswer(db, q),
    listModels(db),
    one(sp.claims) === '0' ? [] : listClaims(db, { modelSlug: q.model }),
  ]);
  const model = models.find((m) => m.slug === q.model)?.name ?? q.model; // always found: checked above
  const speedClaims = claims.filter((c) => c.metric === 'output_speed_tps_per_user');
  const { rows, claimRows } = rankingRows(answer, speedClaims);
  const full = `/?${new URLSearchParams({ model: q.model, workload: q.workload, window: `${q.window}h` }).toString()}`;
  return (
    <>
      <h1>Output speed per user: {model}</h1>
      <p className="small muted">
        Median TPS/user, workload {q.workload}, last {q.window} h, as of {fmtUtc(answer.asOf)}
      </p>
      {rows.length === 0 && claimRows.length === 0 ? (
        <p data-empty="embed-leaderboard">No measurements in this window yet.</p>
      ) : (
        <IntervalChart
          id="embed-ranking"
          rows={rows}
          claimRows={claimRows}
          title={`Median output speed (TPS/user), ${model}, ${q.workload}`}
          unit="tokens/s"
          unitShort="TPS/user"
        />
      )}
      <details>
        <summary>Table</summary>
        <DataTable label="Ranking (table)" table="embed-leaderboard" columns={['Rank', 'Endpoint', { num: 'TPS/user P50' }, { num: 'P25–P75' }, { num: 'n' }]}>
          {answer.entries
            .filter((e) => e.rank !== null)
            .map((e) => (
              <tr key={e.endpoint.id} data-endpoint={e.endpoint.slug}>
                <td>
                  {e.rank}
                  {e.tiedWith.length ? ' (tied)' : ''}
                </td>
                <td>
                  {e.endpoint.provider} · {e.endpoint.slug}
                </td>
                <td className="num" data-metric="tps-p50">
                  {fmt(e.outputTokensPerSecond?.p50, 1)}
                </td>
                <td className="num">{fmtRange(e.outputTokensPerSecond?.p25, e.outputTokensPerSecond?.p75)}</td>
                <td className="num">{e.n}</td>
              </tr>
            ))}
        </DataTable>
      </details>
      <p className="embed-foot">
        <a href={full} target="_blank" rel="noopener">
          Tokenpace: full leaderboard and evidence<span className="sr-only"> (opens in a new tab)</span>
        </a>{' '}
        · snapshot {answer.snapshotId}
      </p>
    </>
  );
}
