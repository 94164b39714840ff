'use client';

import Link from 'next/link';
import { useEffect, useMemo, useState } from 'react';
import { applyComparisonFilters, type ComparedModel } from '@/lib/catalog/model-comparison';
import { fmt, fmtPct } from './format';
import { IntervalChart } from './interval-chart';
import { CONTEXTS, SORTS, type ComparisonFilterState, type Sort } from './model-comparison-state';
import { NumTh } from './num-th';

const ctxLabel = (n: number) => (n >= 1_000_000 ? `${fmt(n / 1_000_000, n % 1_000_000 ? 1 : 0)}M` : `${fmt(Math.round(n / 1024))}k`);

function sortValue(m: ComparedModel, sort: Sort): number | string | null {
  const b = m.best;
  switch (sort) {
    case 'speed':
      return b?.outputTokensPerSecond.p50 ?? null;
    case 'ttft':
      return b?.ttftMs?.p50 ?? null;
    case 'price':
      return b ? b.blendedUsdPerMTokens : m.minBlendedUsdPerMTokens;
    case 'context':
      return b ? b.contextWindowTokens : m.maxContextWindowTokens;
    case 'name':
      return m.name;
  }
}

/**
 * The home page's model comparison (client part): filters (weights, provider, price ceiling, context
 * window), a sortable table of each model's fastest endpoint and a chart of their TPS/user. Every
 * figure is the model board's (passed in from server/model-comparison); the filters run the
 * same rule as the API (lib/catalog/model-comparison applyComparisonFilters). The state lives in
 * the URL (?weights=open&provider=groq&maxPrice=1&minContext=131072&sort=ttft&dir=asc).
 */
export function ModelComparisonView({
  models,
  initial,
  workload,
  windowLabel,
}: {
  models: ComparedModel[];
  initial: ComparisonFilterState;
  workload: string;
  windowLabel: string;
}) {
  const [f, setF] = useState<ComparisonFilterState>(initial);
  const providers = useMemo(
    () => [...new Map(models.flatMap((m) => m.providers).map((p) => [p.slug, p])).values()].sort((a, b) => a.name.localeCompare(b.name)),
    [models],
  );
  const priceError = f.maxPrice !== '' && !(Number.isFinite(Number(f.maxPrice)) && Number(f.maxPrice) >= 0);

  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    for (const [k, v] of Object.entries({ weights: f.weights, provider: f.provider, maxPrice: priceError ? '' : f.maxPrice, minContext: f.minContext })) {
      if (v) params.set(k, v);
      else params.delete(k);
    }
    if (f.sort !== 'speed' || f.dir !== 'desc') {
      params.set('sort', f.sort);
      params.set('dir', f.dir);
    } else {
      params.delete('sort');
      params.delete('dir');
    }
    const qs = params.toString();
    window.history.replaceState(null, '', `${window.location.pathname}${qs ? `?${qs}` : ''}`);
  }, [f, priceError]);

  const shown = useMemo(() => {
    const filtered = applyComparisonFilters(models, {
      weights: f.weights || null,
      providers: f.provider ? [f.provider] : [],
      maxBlendedUsdPerMTokens: f.maxPrice !== '' && !priceError ? Number(f.maxPrice) : null,
      minContextWindowTokens: f.minContext ? Number(f.minContext) : null,
    });
    const sign = f.dir === 'asc' ? 1 : -1;
    return [...filtered].sort((a, b) => {
      // measured models first whatever the sort; unknown values last
      if (!!a.best !== !!b.best) return a.best ? -1 : 1;
      const va = sortValue(a, f.sort);
      const vb = sortValue(b, f.sort);
      if (va === null || vb === null) return va === vb ? a.name.localeCompare(b.name) : va === null ? 1 : -1;
      const c = typeof va === 'string' ? va.localeCompare(vb as string) : va - (vb as number);
      return sign * c || a.name.localeCompare(b.name);
    });
  }, [models, f, priceError]);
  const measured = shown.filter((m) => m.best);
  const set = (patch: Partial<ComparisonFilterState>) => setF((s) => ({ ...s, ...patch }));
  const sortBy = (sort: Sort) => setF((s) => ({ ...s, sort, dir: s.sort === sort ? (s.dir === 'asc' ? 'desc' : 'asc') : SORTS[sort].better }));
  const th = (sort: Sort, label: React.ReactNode, className = 'num') => (
    <th scope="col" className={className} aria-sort={f.sort === sort ? (f.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className="sort" onClick={() => sortBy(sort)} data-sort={sort}>
        {label}
        {f.sort === sort ? (
          <span className="sort-arrow" aria-hidden="true">
            {f.dir === 'asc' ? '▲' : '▼'}
          </span>
        ) : null}
      </button>
    </th>
  );
  const compareIds = measured.slice(0, 4).map((m) => m.best!.id);

  return (
    <section aria-labelledby="compare-models-heading" data-testid="model-comparison" data-shown={shown.length}>
      <h2 id="compare-models-heading" className="sr-only">
        Models compared
      </h2>
      <form className="pickers" role="search" aria-label="Filter models" onSubmit={(e) => e.preventDefault()}>
        <label>
          Weights
          <select value={f.weights} onChange={(e) => set({ weights: e.target.value as ComparisonFilterState['weights'] })} name="weights">
            <option value="">Open-weight and proprietary</option>
            <option value="open">Open-weight only</option>
            <option value="proprietary">Proprietary only</option>
          </select>
        </label>
        <label>
          Provider
          <select value={f.provider} onChange={(e) => set({ provider: e.target.value })} name="provider">
            <option value="">Any provider</option>
            {providers.map((p) => (
              <option key={p.slug} value={p.slug}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Max price (USD per M tokens, blended)
          <input
            type="number"
            inputMode="decimal"
            min={0}
            step="any"
            name="maxPrice"
            value={f.maxPrice}
            onChange={(e) => set({ maxPrice: e.target.value })}
            placeholder="any"
            aria-invalid={priceError || undefined}
            aria-describedby="max-price-help"
          />
          <span id="max-price-help" className="small muted">
            {priceError ? 'Enter a price of 0 or more.' : 'Endpoints without a published price are left out.'}
          </span>
        </label>
        <label>
          Context window at least
          <select value={f.minContext} onChange={(e) => set({ minContext: e.target.value })} name="minContext">
            <option value="">Any</option>
            {CONTEXTS.map((c) => (
              <option key={c} value={String(c)}>
                {ctxLabel(c)} tokens
              </option>
            ))}
          </select>
        </label>
        {f.weights || f.provider || f.maxPrice || f.minContext ? (
          <button type="button" onClick={() => set({ weights: '', provider: '', maxPrice: '', minContext: '' })}>
            Clear filters
          </button>
        ) : null}
      </form>
      <p className="small muted" role="status" data-testid="comparison-status">
        {shown.length} of {models.length} models shown · {measured.length} measured in the last {windowLabel} for workload {workload}
      </p>

      {measured.length > 0 ? (
        <IntervalChart
          id="model-comparison"
          title={`Fastest endpoint of each model: output speed per user, last ${windowLabel}, ${workload}`}
          unit="tokens/s"
          unitShort="TPS/user"
          digits={1}
          rows={measured.map((m) => ({ key: m.slug, label: m.name, sublabel: m.best!.provider, ...m.best!.outputTokensPerSecond }))}
        />
      ) : null}

      {shown.length === 0 ? (
        <div className="empty" data-empty="comparison-filters">
          <h3>No model matches these filters</h3>
          <p>
            Try a higher price, a smaller context window or another provider. Endpoints without a published price or context window never pass those filters.
          </p>
        </div>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Models compared (table)">
          <table data-table="model-comparison">
            <caption className="sr-only">
              Each model’s fastest endpoint, last {windowLabel}, workload {workload}; sort by a column header
            </caption>
            <thead>
              <tr>
                {th('name', 'Model', '')}
                <th scope="col">Fastest endpoint</th>
                <th scope="col">Precision</th>
                {th(
                  'speed',
                  <>
                    TPS/user <abbr title="median output tokens per second of one stream">P50</abbr>
                  </>,
                )}
                <NumTh>
                  <abbr title="95 % confidence interval of the median">95 % CI</abbr>
                </NumTh>
                {th('ttft', <>TTFT P50 (ms)</>)}
                {th(
                  'price',
                  <>
                    <abbr title="declared with its source, never measured: (3 × input + 1 × output) ÷ 4">Price</abbr> (USD/M)
                  </>,
                )}
                {th('context', 'Context')}
                <NumTh>Success</NumTh>
                <th scope="col">Board</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((m) => {
                const b = m.best;
                return (
                  <tr key={m.slug} data-model={m.slug} data-endpoint={b?.slug ?? ''} data-snapshot={m.snapshotId}>
                    <th scope="row">
                      <Link href={`/?model=${m.slug}&workload=${workload}&window=${windowLabel}`}>{m.name}</Link>
                      <span className="block small muted">
                        {m.weights === 'open' ? 'open-weight' : m.weights === 'proprietary' ? 'proprietary' : 'weights undeclared'} · {m.creator ?? '–'}
                      </span>
                    </th>
                    {b ? (
                      <>
                        <td data-metric="endpoint">
                          <Link href={`/endpoints/${b.id}?workload=${workload}`}>{b.provider}</Link>
                          <span className="block small muted">{b.slug}</span>
                        </td>
                        <td data-metric="precision">{b.precision ?? <span className="muted">undeclared</span>}</td>
                        <td className="num strong" data-metric="tps-p50">
                          {fmt(b.outputTokensPerSecond.p50, 1)}
                        </td>
                        <td className="num" data-metric="tps-ci">
                          {b.outputTokensPerSecondMedianCi
                            ? `${fmt(b.outputTokensPerSecondMedianCi.low, 1)}–${fmt(b.outputTokensPerSecondMedianCi.high, 1)}`
                            : '–'}
                        </td>
                        <td className="num" data-metric="ttft-p50">
                          {fmt(b.ttftMs?.p50)}
                        </td>
                        <td className="num" data-metric="blended-price">
                          {b.blendedUsdPerMTokens === null ? <span className="muted">not published</span> : fmt(b.blendedUsdPerMTokens, 3)}
                        </td>
                        <td className="num" data-metric="context">
                          {b.contextWindowTokens === null ? <span className="muted">unknown</span> : ctxLabel(b.contextWindowTokens)}
                        </td>
                        <td className="num" data-metric="success">
                          {fmtPct(b.successRate, 1)}
                        </td>
                      </>
                    ) : (
                      <td colSpan={8} className="muted" data-metric="not-measured">
                        Not measured yet · {m.endpointCount} {m.endpointCount === 1 ? 'endpoint' : 'endpoints'} from {m.providers.length}{' '}
                        {m.providers.length === 1 ? 'provider' : 'providers'}
                        {m.minBlendedUsdPerMTokens !== null ? ` · published prices from ${fmt(m.minBlendedUsdPerMTokens, 3)} USD/M` : ''}
                      </td>
                    )}
                    <td>
                      <Link href={`/?model=${m.slug}&workload=${workload}&window=${windowLabel}`}>
                        board<span className="sr-only"> of {m.name}</span>
                      </Link>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {compareIds.length >= 2 ? (
        <p>
          <Link href={`/compare?e=${compareIds.join(',')}&workload=${workload}`} data-testid="compare-fastest">
            Compare the fastest endpoints of the top {compareIds.length} models side by side
          </Link>
        </p>
      ) : null}
    </section>
  );
}
