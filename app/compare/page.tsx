import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { listEndpoints, listWorkloads } from '@/db/queries/catalog';
import { findChangePoints, listEndpointHistory } from '@/db/queries/history';
import { getDb } from '@/server/shared';
import { EmptyState } from '@/app/_components/empty-state';
import { getEndpointWindowEntries } from '@/app/_components/endpoint-window';
import { deploymentLabel, fmt, fmtPct, plural, fmtRange } from '@/app/_components/format';
import { fromModelHistory, SERIES_COLORS } from '@/app/_components/history-series';
import { IntervalChart } from '@/app/_components/interval-chart';
import { workloadOptions } from '@/app/_components/pickers';
import { DataTable } from '@/app/_components/data-table';
import { DailyHistory } from '@/app/_components/daily-history';

export const metadata: Metadata = { title: 'Compare endpoints' };

type Search = Promise<Record<string, string | string[] | undefined>>;
const RANGES = { '7d': 7, '30d': 30, '90d': 90 } as const;
type RangeKey = keyof typeof RANGES;
const WINDOW_HOURS = 72;
const MAX = 4;

/** Endpoint ids from ?e=1,2 and/or ?e=1&e=2 (blank selects ignored), unique, at most four. */
/** The parts of `e` that are not endpoint ids (shown, not silently dropped). */
function badIdParts(v: string | string[] | undefined): string[] {
  const raw = (Array.isArray(v) ? v : v ? [v] : [])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  return raw
    .filter((s) => {
      const n = Number(s);
      return !(Number.isInteger(n) && n > 0 && n <= 2_147_483_647);
    })
    .slice(0, 10);
}

function parseIds(v: string | string[] | undefined): number[] {
  const raw = (Array.isArray(v) ? v : v ? [v] : []).flatMap((s) => s.split(','));
  const ids = raw.map((s) => Number(s.trim())).filter((n) => Number.isInteger(n) && n > 0 && n <= 2_147_483_647);
  return [...new Set(ids)].slice(0, MAX);
}

/**
 * Compare 2–4 endpoints side by side (any models): speed and TTFT interval charts, daily history
 * overlaid, speed by workload, and one table of every figure and declared tag. Shareable URL:
 * /compare?e=15,16&workload=prose-1k&range=30d.
 */
export default async function ComparePage({ searchParams }: { searchParams: Search }) {
  await connection();
  const sp = await searchParams;
  const db = getDb();
  const [all, workloads] = await Promise.all([listEndpoints(db), listWorkloads(db)]);
  const asked = parseIds(sp.e);
  const ids = asked.filter((id) => all.some((e) => e.id === id));
  // Ids that name no listed endpoint, and parts that are no id at all: said, never dropped silently.
  const ignored = [...asked.filter((id) => !ids.includes(id)).map(String), ...badIdParts(sp.e)];
  const workload = workloads.find((w) => w.slug === sp.workload)?.slug ?? 'prose-1k';
  const range: RangeKey = typeof sp.range === 'string' && Object.hasOwn(RANGES, sp.range) ? (sp.range as RangeKey) : '30d';
  const chosen = ids.map((id) => all.find((e) => e.id === id)!);
  const now = new Date();
  const scheduled = workloads.filter((w) => w.scheduled || w.slug === workload).map((w) => w.slug);
  const [windowEntries, buckets] = chosen.length
    ? await Promise.all([
        getEndpointWindowEntries(db, { endpoints: chosen.map((e) => ({ id: e.id, modelSlug: e.modelSlug })), workloadSlugs: scheduled }),
        Promise.all(
          ids.map((id) =>
            listEndpointHistory(db, {
              endpointId: id,
              workloadSlug: workload,
              granularity: 'day',
              from: new Date(now.getTime() - RANGES[range] * 86400_000),
              to: now,
              region: null,
            }),
          ),
        ),
      ])
    : [{ entries: new Map<string, never>(), windowStart: null, asOf: null }, [] as Awaited<ReturnType<typeof listEndpointHistory>>[]];
  const statOf = (id: number, w = workload) => {
    const e = windowEntries.entries.get(`${id}|${w}`);
    return e && e.n > 0 ? e : null;
  };
  // one daily series per chosen endpoint (chosen order keeps colours and columns aligned)
  const series = fromModelHistory(
    chosen.map((e, i) => {
      const days = (buckets[i] ?? []).map((b) => ({
        day: b.bucketStart.slice(0, 10),
        n: b.n,
        successes: b.successes,
        median: b.outputTokensPerSecond?.p50 ?? null,
        p25: b.outputTokensPerSecond?.p25 ?? null,
        p75: b.outputTokensPerSecond?.p75 ?? null,
      }));
      return { endpoint: { id: e.id, slug: e.slug, provider: e.provider }, days, changePoints: findChangePoints(days) };
    }),
  ).map((s) => ({ ...s, color: SERIES_COLORS[ids.indexOf(s.endpointId) % SERIES_COLORS.length]! }));
  const options = [{ value: '', label: '(none)', group: '' }, ...all.map((e) => ({ value: String(e.id), label: `${e.provider}: ${e.slug}`, group: e.model }))];
  const slots = Array.from({ length: MAX }, (_, i) => ids[i]);
  const shareUrl = `/compare?e=${ids.join(',')}&workload=${workload}&range=${range}`;
  /** One interval-chart row per chosen endpoint: its percentiles of `metric` (all null where it has no figure). */
  const intervalRows = (metric: 'outputTokensPerSecond' | 'ttftMs') =>
    chosen.map((e) => ({
      key: e.slug,
      label: e.slug,
      sublabel: e.provider,
      ...(statOf(e.id)?.[metric] ?? { p5: null, p25: null, p50: null, p75: null, p95: null }),
    }));
  const categories = scheduled.filter((w) => ids.some((id) => statOf(id, w)));

  const rows: Array<[string, (id: number) => React.ReactNode, string?]> = [
    ['TPS/user P50', (id) => fmt(statOf(id)?.outputTokensPerSecond?.p50, 1), 'tps-p50'],
    [
      'TPS/user P25–P75',
      (id) => {
        const s = statOf(id)?.outputTokensPerSecond;
        return s ? `${fmtRange(s.p25, s.p75)}` : '–';
      },
    ],
    [
      'TPS/user P5–P95',
      (id) => {
        const s = statOf(id)?.outputTokensPerSecond;
        return s ? `${fmtRange(s.p5, s.p95)}` : '–';
      },
    ],
    ['TTFT P50 (ms)', (id) => fmt(statOf(id)?.ttftMs?.p50), 'ttft-p50'],
    ['TTFT P95 (ms)', (id) => fmt(statOf(id)?.ttftMs?.p95)],
    ['TTFAT P50 (ms)', (id) => fmt(statOf(id)?.ttfatMs?.p50)],
    ['E2E P50 (ms)', (id) => fmt(statOf(id)?.e2eMs?.p50)],
    [
      'Success rate',
      (id) => {
        const s = statOf(id);
        return s ? fmtPct(s.successes / s.n, 1) : '–';
      },
      'success',
    ],
    [
      'Fidelity checks passed',
      (id) => {
        const f = statOf(id)?.fidelity;
        return f ? `${fmtPct(f.passRate, 1)} of ${f.n}` : '–';
      },
      'fidelity',
    ],
    [
      'Price, blended 3:1 (USD/M, declared)',
      (id) => {
        const e = all.find((x) => x.id === id)!;
        return e.blendedUsdPerMTokens === null ? 'not declared' : fmt(e.blendedUsdPerMTokens, 3);
      },
      'blended-price',
    ],
    ['Context window (tokens, declared)', (id) => fmt(all.find((x) => x.id === id)!.contextWindowTokens)],
    ['Probes (n)', (id) => statOf(id)?.n ?? 0, 'n'],
    ['Model', (id) => all.find((e) => e.id === id)!.model],
    ['Hardware', (id) => all.find((e) => e.id === id)!.hardware ?? '–'],
    ['Engine', (id) => all.find((e) => e.id === id)!.engine ?? '–'],
    ['Precision', (id) => all.find((e) => e.id === id)!.precision ?? '–', 'precision'],
    ['Speculative decoding', (id) => all.find((e) => e.id === id)!.speculativeDecoding ?? '–'],
    ['Deployment', (id) => deploymentLabel(all.find((e) => e.id === id)!.deploymentKind)],
    ['Status', (id) => all.find((e) => e.id === id)!.status],
  ];

  return (
    <>
      <h1>Compare endpoints</h1>
      {ignored.length > 0 ? (
        <p className="notice" role="status" data-testid="compare-ignored">
          Left out: {ignored.map((v) => `“${v.slice(0, 40)}”`).join(', ')} — no listed endpoint has {ignored.length === 1 ? 'this id' : 'these ids'} (ids are in
          the endpoint pages’ addresses, /endpoints/ID).
        </p>
      ) : null}
      <p className="muted lead">
        Pick two to four endpoints (of any model). Figures cover the last {WINDOW_HOURS} h for one workload; the history shows daily medians. The address of
        this page is the comparison: share it.
      </p>
      <form className="pickers" method="get" action="/compare">
        <fieldset className="pickers-set">
          <legend className="small muted">Endpoints</legend>
          {slots.map((id, i) => (
            <label key={i}>
              Endpoint {i + 1}
              <select name="e" defaultValue={id ? String(id) : ''}>
                {[...new Set(options.map((o) => o.group))].map((g) =>
                  g ? (
                    <optgroup key={g} label={g}>
                      {options
                        .filter((o) => o.group === g)
                        .map((o) => (
                          <option key={o.value} value={o.value}>
                            {o.label}
                          </option>
                        ))}
                    </optgroup>
                  ) : (
                    <option key="none" value="">
                      (none)
                    </option>
                  ),
                )}
              </select>
            </label>
          ))}
        </fieldset>
        <label>
          Workload
          <select name="workload" defaultValue={workload}>
            {workloadOptions(workloads).map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          History range
          <select name="range" defaultValue={range}>
            {Object.entries(RANGES).map(([k, d]) => (
              <option key={k} value={k}>
                last {plural(d, 'day')}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Compare</button>
      </form>

      {chosen.length < 2 ? (
        <EmptyState id="compare" title={chosen.length === 1 ? 'Pick at least one more endpoint' : 'Pick two to four endpoints'} level={2}>
          <p>Choose endpoints in the selects above and press Compare. Endpoint pages and the leaderboard also link here with their endpoint filled in.</p>
          <p>
            Or start from the <Link href="/">leaderboard</Link>, whose &ldquo;Compare the top 3&rdquo; link fills this page for you.
          </p>
        </EmptyState>
      ) : (
        <section aria-label="Comparison" data-testid="compare" data-endpoints={ids.join(',')}>
          <p className="small">
            Share:{' '}
            <Link href={shareUrl} data-testid="share-url">
              {shareUrl}
            </Link>
          </p>
          <div className="grid2">
            <div>
              <h2>Output speed, {workload}</h2>
              <IntervalChart
                id="compare-speed"
                title={`Output speed per user, last ${WINDOW_HOURS} h, ${workload}`}
                unit="tokens/s"
                unitShort="TPS/user"
                rows={intervalRows('outputTokensPerSecond')}
              />
            </div>
            <div>
              <h2>Time to first token, {workload}</h2>
              <IntervalChart
                id="compare-ttft"
                title={`TTFT (lower is better), last ${WINDOW_HOURS} h, ${workload}`}
                unit="ms"
                unitShort="ms"
                rows={intervalRows('ttftMs')}
              />
            </div>
          </div>

          <h2>Side by side</h2>
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Comparison (table)">
            <table data-table="compare">
              <caption className="sr-only">
                Figures of the compared endpoints, last {WINDOW_HOURS} h, workload {workload}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Figure</th>
                  {chosen.map((e) => (
                    <th scope="col" className="num" key={e.id} data-endpoint={e.slug}>
                      <Link href={`/endpoints/${e.id}?workload=${workload}`}>{e.slug}</Link>
                      <span className="block small muted">{e.provider}</span>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map(([label, cell, metric]) => (
                  <tr key={label}>
                    <th scope="row">{label}</th>
                    {chosen.map((e) => (
                      <td className="num" key={e.id} data-endpoint={e.slug} data-metric={metric}>
                        {cell(e.id)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>

          <h2>Speed by workload (TPS/user P50, last {WINDOW_HOURS} h)</h2>
          {categories.length > 0 ? (
            <DataTable
              label="Speed by workload (table)"
              table="compare-workloads"
              head={
                <tr>
                  <th scope="col">Workload</th>
                  {chosen.map((e) => (
                    <th scope="col" className="num" key={e.id}>
                      {e.slug}
                    </th>
                  ))}
                </tr>
              }
            >
              {categories.map((c) => (
                <tr key={c}>
                  <th scope="row">{c}</th>
                  {chosen.map((e) => (
                    <td className="num" key={e.id}>
                      {fmt(statOf(e.id, c)?.outputTokensPerSecond?.p50, 1)}
                    </td>
                  ))}
                </tr>
              ))}
            </DataTable>
          ) : (
            <p className="muted">None of these endpoints has probes in the last {WINDOW_HOURS} h.</p>
          )}

          <h2>
            Daily history, {workload}, last {plural(RANGES[range], 'day')}
          </h2>
          {series.length > 0 ? (
            <DailyHistory id="compare-history" title={`Daily median output speed, ${workload}, last ${plural(RANGES[range], 'day')}`} series={series} />
          ) : (
            <EmptyState id="compare-history" title="No daily history for these endpoints">
              <p>Daily rollups appear once an endpoint has been probed; endpoints waiting for an API key have none. Try another workload or a longer range.</p>
            </EmptyState>
          )}
        </section>
      )}
    </>
  );
}
