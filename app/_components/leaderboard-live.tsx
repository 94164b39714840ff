'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import type { LeaderboardAnswer } from '@/app/_server/leaderboard';
import { fmt, fmtPct } from './format';
import { LeaderboardChart } from './leaderboard-chart';

/**
 * Live leaderboard: server-rendered first answer, then react-query refetches every 30 s with a
 * visible "updated N s ago". Chart (median with P25–P75 whiskers) and a table with the same numbers.
 */
export function LeaderboardLive({ initial, query, caption }: { initial: LeaderboardAnswer; query: string; caption: string }) {
  const { data, dataUpdatedAt, isError } = useQuery({
    queryKey: ['leaderboard', query],
    queryFn: async () => {
      const res = await fetch(`/api/v1/leaderboard?${query}`);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return (await res.json()) as LeaderboardAnswer;
    },
    initialData: initial,
    initialDataUpdatedAt: Date.now(),
    refetchInterval: 30_000,
  });
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const ranked = data.entries.filter((e) => e.outputTokensPerSecond);
  const chartRows = ranked.map((e) => ({
    label: e.endpoint.provider,
    p50: e.outputTokensPerSecond!.p50,
    p25: e.outputTokensPerSecond!.p25,
    p75: e.outputTokensPerSecond!.p75,
  }));
  return (
    <section aria-label={caption}>
      <p className="muted" aria-live="polite">
        As of {new Date(data.asOf).toISOString().slice(0, 16).replace('T', ' ')} UTC · window {data.window} · updated {Math.max(0, Math.round((now - dataUpdatedAt) / 1000))} s ago
        {isError ? ' · refresh failed, showing the last answer' : ''} · snapshot <Link href={`/s/${data.snapshotId}`}>{data.snapshotId}</Link>
      </p>
      {chartRows.length > 0 ? (
        <LeaderboardChart rows={chartRows} title={`Median output speed (TPS/user), ${caption}`} />
      ) : (
        <div className="card">No successful measurements in this window yet. Endpoints become active when their provider API key variable is set (see README), or submit your own endpoint.</div>
      )}
      <div className="table-wrap">
        <table>
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr>
              <th>Rank</th>
              <th>Provider / endpoint</th>
              <th className="num"><Link href="/methodology#output-speed">TPS/user</Link> P50</th>
              <th className="num">P25–P75</th>
              <th className="num"><Link href="/methodology#ttft">TTFT</Link> P50 (ms)</th>
              <th className="num"><Link href="/methodology#e2e">E2E</Link> P50 (ms)</th>
              <th className="num"><Link href="/methodology#success-rate">Success</Link></th>
              <th className="num">n</th>
              <th>Declared</th>
            </tr>
          </thead>
          <tbody>
            {data.entries.map((e) => (
              <tr key={e.endpoint.id} data-endpoint={e.endpoint.slug}>
                <td>{e.rank === null ? '–' : e.tiedWith.length > 0 ? `${e.rank} (tied)` : e.rank}</td>
                <td>
                  <Link href={`/endpoints/${e.endpoint.id}`}>{e.endpoint.provider}</Link>{' '}
                  <span className="muted">{e.endpoint.slug}</span>
                  {e.endpoint.status === 'inactive' ? <span className="tag">awaiting API key</span> : null}
                </td>
                <td className="num" data-metric="tps-p50">{fmt(e.outputTokensPerSecond?.p50, 1)}</td>
                <td className="num">{e.outputTokensPerSecond ? `${fmt(e.outputTokensPerSecond.p25)}–${fmt(e.outputTokensPerSecond.p75)}` : '–'}</td>
                <td className="num" data-metric="ttft-p50">{fmt(e.ttftMs?.p50)}</td>
                <td className="num">{fmt(e.e2eMs?.p50)}</td>
                <td className="num">{fmtPct(e.successRate)}</td>
                <td className="num" data-metric="n">{e.n}</td>
                <td>
                  {[e.endpoint.deploymentKind, e.endpoint.hardware, e.endpoint.engine, e.endpoint.precision, e.endpoint.speculativeDecoding]
                    .filter(Boolean)
                    .map((t) => (
                      <span key={t} className="tag">{t}</span>
                    ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
