import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { getSnapshot } from '@/db/queries/snapshots';
import { getDb } from '@/db/shared';
import { fmt, fmtPct } from '@/app/_components/format';
import type { LeaderboardAnswer } from '@/app/_server/leaderboard';

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
      <p>Model <strong>{a.model}</strong>, workload <strong>{a.workload}</strong>, window {a.window} ending {a.asOf} (UTC), token basis {a.basis}. This page and <a href={`/api/v1/snapshots/${a.snapshotId}`}>its JSON</a> never change.</p>
      <p className="muted">Cite as: Tokenpace leaderboard snapshot {a.snapshotId} ({a.asOf.slice(0, 10)}), /s/{a.snapshotId}</p>
      <div className="table-wrap">
        <table>
          <thead><tr><th>Rank</th><th>Provider</th><th>Endpoint</th><th className="num">TPS/user P50</th><th className="num">P25–P75</th><th className="num">TTFT P50 (ms)</th><th className="num">Success</th><th className="num">n</th></tr></thead>
          <tbody>
            {a.entries.map((e) => (
              <tr key={e.endpoint.id}>
                <td>{e.rank ?? '–'}{e.tiedWith.length ? ' (tied)' : ''}</td><td>{e.endpoint.provider}</td><td>{e.endpoint.slug}</td>
                <td className="num">{fmt(e.outputTokensPerSecond?.p50, 1)}</td>
                <td className="num">{e.outputTokensPerSecond ? `${fmt(e.outputTokensPerSecond.p25)}–${fmt(e.outputTokensPerSecond.p75)}` : '–'}</td>
                <td className="num">{fmt(e.ttftMs?.p50)}</td><td className="num">{fmtPct(e.successRate)}</td><td className="num">{e.n}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
