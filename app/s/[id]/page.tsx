import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getSnapshot } from '@/db/queries/snapshots';
import { getDb } from '@/server/shared';
import { fmt, fmtPct, fmtRange } from '@/app/_components/format';
import type { LeaderboardAnswer } from '@/server/leaderboard';
import { IntervalChart } from '@/app/_components/interval-chart';
import { DataTable } from '@/app/_components/data-table';

export const metadata: Metadata = { title: 'Snapshot' };

/** Human page of an immutable leaderboard snapshot, for citation. */
export default async function SnapshotPage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  const { id } = await params;
  if (!/^[A-Za-z0-9_-]{10,64}$/.test(id)) notFound();
  const snap = await getSnapshot(getDb(), id);
  if (!snap) notFound();
  const a = JSON.parse(snap.body) as LeaderboardAnswer;
  return (
    <>
      <h1>Leaderboard snapshot {a.snapshotId}</h1>
      <p>
        Model <strong>{a.model}</strong>, workload <strong>{a.workload}</strong>, window {a.window} ending {a.asOf} (UTC), token basis {a.basis}. This page and{' '}
        <a href={`/api/v1/snapshots/${a.snapshotId}`}>its JSON</a> never change.
      </p>
      <p className="muted">
        Cite as: Tokenpace leaderboard snapshot {a.snapshotId} ({a.asOf.slice(0, 10)}), /s/{a.snapshotId}
      </p>
      {a.entries.some((e) => e.rank !== null && e.outputTokensPerSecond) ? (
        <IntervalChart
          id="snapshot-ranking"
          title={`Snapshot ${a.snapshotId}: median output speed (TPS/user), ${a.model}, ${a.workload}`}
          unit="tokens/s"
          unitShort="TPS/user"
          rows={a.entries
            .filter((e) => e.rank !== null && e.outputTokensPerSecond)
            .map((e) => ({
              key: e.endpoint.slug,
              label: `${e.rank}${e.tiedWith.length ? '=' : '.'} ${e.endpoint.slug}`,
              sublabel: e.endpoint.provider,
              ...e.outputTokensPerSecond!,
              band: e.tiedWith.length ? e.band : null,
            }))}
        />
      ) : (
        <p className="empty" data-empty="snapshot">
          No endpoint had enough successful probes in this window to be ranked; the table lists every endpoint with its probe count.
        </p>
      )}
      <p>
        <a href={`/?${new URLSearchParams({ model: a.model, workload: a.workload, window: a.window, at: a.asOf }).toString()}`}>
          Open this board as it stood then
        </a>{' '}
        (pinned, not refreshed)
      </p>
      <DataTable
        label="Snapshot (table)"
        columns={['Rank', 'Provider', 'Endpoint', { num: 'TPS/user P50' }, { num: 'P25–P75' }, { num: 'TTFT P50 (ms)' }, { num: 'Success' }, { num: 'n' }]}
      >
        {a.entries.map((e) => (
          <tr key={e.endpoint.id} data-endpoint={e.endpoint.slug}>
            <td>
              {e.rank ?? '–'}
              {e.tiedWith.length ? ' (tied)' : ''}
            </td>
            <td>{e.endpoint.provider}</td>
            <td>{e.endpoint.slug}</td>
            <td className="num" data-metric="tps-p50">
              {fmt(e.outputTokensPerSecond?.p50, 1)}
            </td>
            <td className="num">{e.outputTokensPerSecond ? `${fmtRange(e.outputTokensPerSecond.p25, e.outputTokensPerSecond.p75)}` : '–'}</td>
            <td className="num">{fmt(e.ttftMs?.p50)}</td>
            <td className="num">{fmtPct(e.successRate)}</td>
            <td className="num">{e.n}</td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
