'use client';
import Link from 'next/link';
import { useState } from 'react';
import type { LeaderboardAnswer } from '@/server/leaderboard';
import { deploymentLabel, fmt, fmtPct, fmtRange, SPEED_DIGITS } from './format';
import { SORT_KEYS, sortEntries, type SortDir, type SortKey } from './leaderboard-sort';
import { NumTh } from './num-th';

type Entry = LeaderboardAnswer['entries'][number];

/** A claim shown in the table's claim column. */
export interface TableClaim {
  providerSlug: string;
  text: string;
}

/**
 * The leaderboard as a table (the accessible alternative of the charts, with every figure the API
 * returns for the window). The key figures (rank, TPS/user P50 with its P25–P75, TTFT, n, success,
 * fidelity) come first so they fit a 1280 px screen without sideways scrolling; the rest follows
 * behind a scroll shadow. Below 640 px each row is a card (CSS only, labels from `data-label`;
 * issue #23 item 4, docs/decisions/202). Sortable by clicking a column header (keyboard: Tab + Enter), sort kept
 * in the URL (?sort=ttft&dir=asc) so a sorted view can be shared.
 */
export function LeaderboardTable({
  entries,
  caption,
  claims,
  initialSort,
  initialDir,
}: {
  entries: Entry[];
  caption: string;
  claims: TableClaim[];
  initialSort: SortKey;
  initialDir: SortDir;
}) {
  const [sort, setSort] = useState<{ key: SortKey; dir: SortDir }>({ key: initialSort, dir: initialDir });
  const rows = sortEntries(entries, sort.key, sort.dir);
  // the prompt-cache columns (decision 269): on the boards whose answer carries them (headline, cache-*)
  const cacheColumns = entries.some((e) => e.promptCache);
  const onSort = (key: SortKey) => {
    const dir: SortDir = sort.key === key ? (sort.dir === 'asc' ? 'desc' : 'asc') : SORT_KEYS[key].better;
    setSort({ key, dir });
    const url = new URL(window.location.href);
    if (key === 'rank' && dir === 'asc') {
      url.searchParams.delete('sort');
      url.searchParams.delete('dir');
    } else {
      url.searchParams.set('sort', key);
      url.searchParams.set('dir', dir);
    }
    window.history.replaceState(window.history.state, '', url);
  };
  const th = (key: SortKey, children: React.ReactNode, num = true) => (
    <th className={num ? 'num' : undefined} aria-sort={sort.key === key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined} scope="col">
      <button type="button" className="sort" onClick={() => onSort(key)} data-sort={key}>
        {children}
        <span aria-hidden="true" className="sort-arrow">
          {sort.key === key ? (sort.dir === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
  const deployment = (e: Entry) =>
    [
      e.endpoint.hardware,
      e.endpoint.engine,
      e.endpoint.precision,
      e.endpoint.speculativeDecoding ? `spec. decoding: ${e.endpoint.speculativeDecoding}` : null,
    ].filter(Boolean) as string[];
  return (
    <>
      <p className="table-hint small muted" aria-hidden="true">
        Key figures first; P5–P95, TTFAT, E2E, ITL, price, deployment and claims follow to the right (scroll sideways).
      </p>
      <div className="table-wrap board-wrap" tabIndex={0} role="region" aria-label={`${caption} (table)`}>
        <table data-table="leaderboard" className="board">
          <caption className="sr-only">{caption}. Column headers sort the table.</caption>
          <thead>
            <tr>
              {th('rank', 'Rank', false)}
              <th scope="col" className="board-name">
                Provider / endpoint
              </th>
              {th(
                'speed',
                <>
                  <abbr title="output tokens per second of one stream, after the first token">TPS/user</abbr> P50
                </>,
              )}
              <NumTh>P25–P75</NumTh>
              {th(
                'ttft',
                <>
                  <abbr title="time to first token">TTFT</abbr> P50 (ms)
                </>,
              )}
              {th('n', 'n')}
              {th('success', 'Success')}
              {th(
                'fidelity',
                <>
                  <abbr title="share of fidelity checks passed (known arithmetic, code output, JSON schema, access-code recall over the whole prompt), 95 % Wilson interval">
                    Fidelity
                  </abbr>
                </>,
              )}
              <NumTh>P5–P95</NumTh>
              {th(
                'ttfat',
                <>
                  <abbr title="time to first answer token, after any reasoning">TTFAT</abbr> P50 (ms)
                </>,
              )}
              {th('e2e', <>E2E P50 (ms)</>)}
              {th(
                'itl',
                <>
                  <abbr title="inter-token latency: gap between token-bearing events ÷ tokens of the later event; median over the window of each request's ITL P50 and P95">
                    ITL
                  </abbr>{' '}
                  P50 · P95 (ms/token)
                </>,
              )}
              {cacheColumns ? (
                <>
                  <th scope="col" className="num">
                    <abbr title="median TTFT of the prompt-cache pair: a ~2,000-token request new to the provider (cold), then the same 1,900-token prefix again at once (warm)">
                      TTFT cold · warm
                    </abbr>{' '}
                    (ms)
                  </th>
                  <th scope="col" className="num">
                    <abbr title="share of warm requests the provider reported serving from its prompt cache (cached input tokens > 0), 95 % Wilson interval">
                      Cache hit
                    </abbr>
                  </th>
                  <th scope="col" className="num">
                    <abbr title="median over the warm requests of cached input tokens ÷ input tokens of the prompt, both as the provider reported them (decision 291)">
                      Cached share
                    </abbr>
                  </th>
                </>
              ) : null}
              {th(
                'price',
                <>
                  <abbr title="declared by the owner or an admin with its source, never measured: (3 × input + 1 × output) ÷ 4 USD per million tokens">
                    Price, blended 3:1
                  </abbr>{' '}
                  (USD/M)
                </>,
              )}
              <th scope="col">Deployment</th>
              <th scope="col">Declared hardware · engine · precision · speculative decoding</th>
              <NumTh>Claimed (source)</NumTh>
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => {
              const s = e.outputTokensPerSecond;
              const claim = claims.filter((c) => c.providerSlug === e.endpoint.providerSlug);
              const declared = deployment(e);
              return (
                <tr key={e.endpoint.id} data-endpoint={e.endpoint.slug} data-endpoint-id={e.endpoint.id}>
                  <td data-metric="rank" data-label="Rank" className="board-rank">
                    {e.rank === null ? (
                      <span className="muted" data-not-ranked={e.notRankedReason ?? undefined}>
                        {e.notRankedReason === 'fidelity_below_bound' ? 'unranked: fails fidelity checks' : 'unranked'}
                      </span>
                    ) : e.tiedWith.length > 0 ? (
                      `${e.rank} (tied)`
                    ) : (
                      e.rank
                    )}
                  </td>
                  <td className="board-name" data-label="Endpoint">
                    <Link href={`/endpoints/${e.endpoint.id}`}>{e.endpoint.provider}</Link> <span className="muted small board-slug">{e.endpoint.slug}</span>
                    {e.endpoint.status === 'inactive' ? (
                      <span className="tag">not measured here</span>
                    ) : e.endpoint.status === 'paused' ? (
                      <span className="tag">paused</span>
                    ) : null}
                  </td>
                  <td className="num strong board-key" data-metric="tps-p50" data-label="TPS/user P50">
                    {fmt(s?.p50, SPEED_DIGITS)}
                    {/* How sure: the 95 % interval of the median decides ties (overlapping intervals are one band). */}
                    {e.outputTokensPerSecondMedianCi ? (
                      <span
                        className="small muted block"
                        data-metric="tps-median-ci"
                        title="95 % interval of the median: entries whose intervals overlap are tied"
                      >
                        median {fmtRange(e.outputTokensPerSecondMedianCi.low, e.outputTokensPerSecondMedianCi.high)}
                      </span>
                    ) : null}
                  </td>
                  <td className="num board-key" data-metric="tps-p25-p75" data-label="P25–P75">
                    {s ? `${fmtRange(s.p25, s.p75)}` : '–'}
                  </td>
                  <td className="num board-key" data-metric="ttft-p50" data-label="TTFT P50 (ms)">
                    {fmt(e.ttftMs?.p50)}
                  </td>
                  <td className="num board-key" data-metric="n" data-label="n">
                    {e.n}
                  </td>
                  <td className="num board-key board-wrapcell" data-metric="success" data-label="Success">
                    {fmtPct(e.successRate, 1)}
                    {Object.keys(e.errorKinds).length > 0 ? (
                      <span className="small muted block">
                        {Object.entries(e.errorKinds)
                          .map(([k, n]) => `${k} ${n}`)
                          .join(', ')}
                      </span>
                    ) : null}
                  </td>
                  <td className="num board-key" data-metric="fidelity" data-label="Fidelity">
                    {e.fidelity ? (
                      <>
                        {fmtPct(e.fidelity.passRate, 0)}
                        <span className="small muted block">
                          n {e.fidelity.n} · {fmtPct(e.fidelity.interval.low, 0)}–{fmtPct(e.fidelity.interval.high, 0)}
                        </span>
                      </>
                    ) : (
                      <span className="muted">no check</span>
                    )}
                  </td>
                  <td className="num muted" data-metric="tps-p5-p95" data-label="P5–P95">
                    {s ? `${fmtRange(s.p5, s.p95)}` : '–'}
                  </td>
                  <td className="num" data-metric="ttfat-p50" data-label="TTFAT P50 (ms)">
                    {fmt(e.ttfatMs?.p50)}
                  </td>
                  <td className="num" data-metric="e2e-p50" data-label="E2E P50 (ms)">
                    {fmt(e.e2eMs?.p50)}
                  </td>
                  <td className="num" data-metric="itl" data-label="ITL P50 · P95 (ms/token)">
                    {e.medianItlP50Ms !== null && e.medianItlP95Ms !== null ? `${fmt(e.medianItlP50Ms, 2)} · ${fmt(e.medianItlP95Ms, 2)}` : '–'}
                  </td>
                  {cacheColumns ? (
                    <>
                      <td className="num" data-metric="ttft-cold-warm" data-label="TTFT cold · warm (ms)">
                        {e.promptCache ? `${fmt(e.promptCache.ttftColdMs)} · ${fmt(e.promptCache.ttftWarmMs)}` : '–'}
                      </td>
                      <td className="num" data-metric="cache-hit" data-label="Cache hit">
                        {e.promptCache?.hitShare ? (
                          <>
                            {fmtPct(e.promptCache.hitShare.share, 0)}
                            <span className="muted small">
                              {' '}
                              n {e.promptCache.hitShare.n} · {fmtPct(e.promptCache.hitShare.interval.low, 0)}–{fmtPct(e.promptCache.hitShare.interval.high, 0)}
                            </span>
                          </>
                        ) : (
                          '–'
                        )}
                      </td>
                      <td className="num" data-metric="cached-share" data-label="Cached share">
                        {e.promptCache?.cachedInputShare ? (
                          <>
                            {fmtPct(e.promptCache.cachedInputShare.p50, 0)}
                            <span className="muted small"> n {e.promptCache.cachedInputShare.n}</span>
                          </>
                        ) : (
                          '–'
                        )}
                      </td>
                    </>
                  ) : null}
                  <td className="num" data-metric="blended-price" data-label="Price, blended 3:1 (USD/M)">
                    {e.endpoint.blendedUsdPerMTokens === null ? <span className="muted">not declared</span> : fmt(e.endpoint.blendedUsdPerMTokens, 3)}
                  </td>
                  <td data-label="Deployment">{deploymentLabel(e.endpoint.deploymentKind)}</td>
                  <td data-label="Declared" className={declared.length ? 'board-wide' : 'board-wide board-empty'}>
                    {declared.map((t) => (
                      <span key={t} className="tag">
                        {t}
                      </span>
                    ))}
                  </td>
                  <td className={claim.length ? 'num claim small board-wide' : 'num claim small board-wide board-empty'} data-label="Claimed">
                    {claim.length ? claim.map((c) => c.text).join('; ') : <span className="muted">–</span>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
