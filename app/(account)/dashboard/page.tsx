import type { Metadata } from 'next';
import Link from 'next/link';
import { listOwnedEndpoints } from '@/db/queries/submissions';
import { getDb } from '@/server/shared';
import { SignOutButton } from '../_components/endpoint-actions';
import { requirePageUser } from '../_lib/page-user';
import { getEndpointWindowEntries } from '@/app/_components/endpoint-window';
import { DEFAULT_WORKLOAD_SLUG } from '@/lib/catalog/seed-workloads';

export const metadata: Metadata = { title: 'Your endpoints' };

const STATUS_TEXT: Record<string, string> = {
  pending: 'waiting for review',
  active: 'active (probed every slot)',
  paused: 'paused',
  rejected: 'rejected',
  inactive: 'inactive',
};

const n = (v: number | null, digits = 0) => (v === null ? '–' : v.toLocaleString('en-US', { maximumFractionDigits: digits }));

/** /dashboard – the provider's endpoints: status, verification, last 24 h of measurements, failures by kind. */
export default async function DashboardPage() {
  const user = await requirePageUser('/dashboard');
  const db = getDb();
  const items = await listOwnedEndpoints(db, { ownerUserId: user.id, since: new Date(Date.now() - 24 * 3600_000) });
  // Each listed endpoint's place on its model's board (default workload and window): the leaderboard's own entry.
  const listed = items.filter((e) => e.status === 'active' || e.status === 'paused');
  const board = listed.length
    ? (await getEndpointWindowEntries(db, { endpoints: listed.map((e) => ({ id: e.id, modelSlug: e.modelSlug })), workloadSlugs: [DEFAULT_WORKLOAD_SLUG] }))
        .entries
    : new Map();
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Your endpoints</h1>
          <p className="muted">
            Signed in as {user.email}
            {user.role === 'admin' ? ' (admin)' : ''}.
          </p>
        </div>
        <div className="actions">
          <Link href="/submit">Submit an endpoint</Link> · <Link href="/dashboard/tokens">API tokens</Link>
          {user.role === 'admin' ? (
            <>
              {' '}
              · <Link href="/admin">Review queue</Link>
            </>
          ) : null}{' '}
          · <SignOutButton />
        </div>
      </div>
      {items.length === 0 ? (
        <div className="empty">
          <h2>No endpoints yet</h2>
          <p>
            <Link href="/submit">Submit your first endpoint</Link>.
          </p>
        </div>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="sr-only">Your endpoints</caption>
            <thead>
              <tr>
                <th>Endpoint</th>
                <th>Status</th>
                <th>Rank ({DEFAULT_WORKLOAD_SLUG}, 72 h)</th>
                <th>Verification</th>
                <th className="num">Probes 24 h</th>
                <th className="num">Median TPS/user</th>
                <th className="num">Median TTFT ms</th>
                <th>Failures by kind (24 h)</th>
                <th>Last measured</th>
              </tr>
            </thead>
            <tbody>
              {items.map((e) => (
                <tr key={e.id} data-endpoint-id={e.id}>
                  <td>
                    <Link href={`/dashboard/endpoints/${e.id}`}>
                      {e.provider} · {e.model}
                    </Link>
                    <div className="small muted">
                      {e.baseUrl} · {e.apiModelId}
                    </div>
                  </td>
                  <td data-field="status">
                    {STATUS_TEXT[e.status] ?? e.status}
                    {e.status === 'rejected' && e.rejectionReason ? <div className="small">Reason: {e.rejectionReason}</div> : null}
                  </td>
                  <td data-field="rank">{rankCell(e, board.get(`${e.id}|${DEFAULT_WORKLOAD_SLUG}`))}</td>
                  <td>
                    {e.verification
                      ? e.verification.outcome === 'success'
                        ? `passed: ${n(e.verification.outputTokensPerSecond)} tok/s, TTFT ${n(e.verification.ttftMs)} ms`
                        : `failed: ${e.verification.errorKind}`
                      : '–'}
                  </td>
                  <td className="num">{e.recent.successes + e.recent.failures}</td>
                  <td className="num" data-metric="median-tps">
                    {n(e.recent.medianOutputTokensPerSecond, 1)}
                  </td>
                  <td className="num">{n(e.recent.medianTtftMs)}</td>
                  <td>
                    {Object.keys(e.recent.failuresByKind).length === 0
                      ? 'none'
                      : Object.entries(e.recent.failuresByKind)
                          .map(([k, c]) => `${k}: ${c}`)
                          .join(', ')}
                  </td>
                  <td>{e.recent.lastMeasuredAt ? e.recent.lastMeasuredAt.slice(0, 16).replace('T', ' ') + ' UTC' : '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** "#2 of 5" linked to the model's board, or why there is no rank yet. */
function rankCell(
  e: { id: number; status: string; modelSlug: string; model: string },
  entry: { rank: number | null; notRankedReason?: string | null } | undefined,
) {
  if (e.status !== 'active' && e.status !== 'paused') return <span className="muted">not on a board until approved</span>;
  const href = `/?model=${e.modelSlug}&workload=${DEFAULT_WORKLOAD_SLUG}`;
  if (!entry)
    return (
      <>
        <span className="muted">no probes in the window yet</span> · <Link href={href}>board of {e.model}</Link>
      </>
    );
  if (entry.rank === null)
    return (
      <>
        <span className="muted">unranked ({(entry.notRankedReason ?? 'too_few_samples').replaceAll('_', ' ')})</span> ·{' '}
        <Link href={href}>board of {e.model}</Link>
      </>
    );
  return (
    <Link href={href} data-rank={entry.rank}>
      #{entry.rank} on the board of {e.model}
    </Link>
  );
}
