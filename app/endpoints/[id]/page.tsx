import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { listClaims } from '@/db/queries/claims';
import { getPublicEndpoint, listWorkloads } from '@/db/queries/catalog';
import { listDisclosureRevisions } from '@/db/queries/disclosure-revisions';
import { findChangePoints, listEndpointHistory } from '@/db/queries/history';
import { CHANGE_POINT_REVISION_DAYS, revisionNear } from '@/lib/catalog/disclosure';
import { RevisionHistory, type ChangeWithRevision } from '@/app/_components/revision-history';
import { getHiddenReasoning } from '@/db/queries/hidden-reasoning';
import { getEndpointEvidence, listEndpointRecentMeasurements, listEndpointSamples } from '@/db/queries/ui-endpoint';
import { getTokenHonesty } from '@/db/queries/token-honesty';
import { listEndpointOutcomes } from '@/db/queries/ui-history';
import { getDb } from '@/server/shared';
import { DEFAULT_WORKLOAD_SLUG } from '@/lib/catalog/seed-workloads';
import { decodeTimeline } from '@/lib/probe/timeline-codec';
import { HistogramChart, OutcomesChart } from '@/app/_components/bar-charts';
import { DetailsTable } from '@/app/_components/details-table';
import { EmptyState, EndpointStatusHint } from '@/app/_components/empty-state';
import { getEndpointTierWindows, getEndpointWindowEntries, listEndpointWorkloadFigures } from '@/app/_components/endpoint-window';
import { PromptCachePanel } from '@/app/_components/prompt-cache-panel';
import { StructuredPenaltyPanel } from '@/app/_components/structured-penalty-panel';
import { AgentTurnsPanel } from '@/app/_components/agent-turns-panel';
import { CacheLifetimePanel } from '@/app/_components/cache-lifetime-panel';
import { getEndpointFamilyFigures } from '@/server/workload-families';
import { AGENT_WORKLOADS } from '@/lib/probe/workloads';
import { TierAttainmentPanel } from '@/app/_components/tier-attainment-panel';
import { isFamilyWorkload } from '@/lib/probe/workloads';
import { boundWord, deploymentLabel, fmt, fmtClaimDate, fmtPct, fmtUtc, plural, fmtRange, SPEED_DIGITS } from '@/app/_components/format';
import { InputSizeChart } from '@/app/_components/input-size-chart';
import { IntervalChart } from '@/app/_components/interval-chart';
import { PickerForm, workloadOptions } from '@/app/_components/pickers';
import { histogram } from '@/app/_components/scale';
import { TimeSeriesChart } from '@/app/_components/time-series-chart';
import { listAnnotations, listDisputes } from '@/db/queries/disputes';
import { TimelineChart } from '@/app/_components/timeline-chart';
import { EndpointUptimePanel } from '@/app/_components/uptime-strip';
import { NumTh } from '@/app/_components/num-th';
import { DataTable } from '@/app/_components/data-table';
import { endpointSpeedSeries } from '@/app/_components/history-series';

type Params = Promise<{ id: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

const RANGES = {
  '24h': { hours: 24, label: 'last 24 hours', outcomes: 'hour' },
  '7d': { hours: 168, label: 'last 7 days', outcomes: 'hour' },
  '30d': { hours: 720, label: 'last 30 days', outcomes: 'day' },
  '90d': { hours: 2160, label: 'last 90 days', outcomes: 'day' },
} as const;
type RangeKey = keyof typeof RANGES;
const WINDOW_HOURS = 72;

const one = (v: string | string[] | undefined) => (typeof v === 'string' ? v : undefined);

async function loadEndpoint(idParam: string) {
  const id = Number(idParam);
  if (!Number.isInteger(id) || id <= 0 || id > 2_147_483_647) return null;
  return getPublicEndpoint(getDb(), id);
}

/** Title and description name the endpoint; the Open Graph image is this endpoint's card. */
export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const endpoint = await loadEndpoint((await params).id);
  if (!endpoint) return { title: 'Endpoint not found' };
  return {
    title: `${endpoint.provider}: ${endpoint.slug}`,
    description: `${endpoint.provider} serving ${endpoint.model}: measured output speed per user, TTFT, success rate and evidence.`,
  };
}

/**
 * Endpoint page: declared metadata; window summary; speed by workload category (where speculative
 * decoding shows); distributions of speed and TTFT; hourly history; success rate and failure kinds
 * over time; evidence viewer plotting one measurement's chunk arrivals with a link to its raw JSON.
 * URL: ?workload=prose-1k&range=7d&m=<measurement id>.
 */
export default async function EndpointPage({ params, searchParams }: { params: Params; searchParams: Search }) {
  await connection();
  const endpoint = await loadEndpoint((await params).id);
  if (!endpoint) notFound();
  const id = endpoint.id;
  const db = getDb();
  const sp = await searchParams;
  const workloads = await listWorkloads(db);
  const workload = workloads.find((w) => w.slug === one(sp.workload))?.slug ?? DEFAULT_WORKLOAD_SLUG;
  const range: RangeKey = (one(sp.range) ?? '') in RANGES ? (one(sp.range) as RangeKey) : '7d';
  const mParam = Number(one(sp.m));
  const measurementId = Number.isInteger(mParam) && mParam > 0 ? mParam : null;
  const now = new Date();
  const windowFrom = new Date(now.getTime() - WINDOW_HOURS * 3600_000);
  const rangeFrom = new Date(now.getTime() - RANGES[range].hours * 3600_000);

  // the grid (the families have their own sections)
  const shownWorkloads = workloads.filter((w) => (w.scheduled || w.slug === workload) && !isFamilyWorkload(w.slug));
  const [window, cacheWindow, families, tierWindows] = await Promise.all([
    listEndpointWorkloadFigures(db, { endpoint: { id, modelSlug: endpoint.modelSlug }, workloads: shownWorkloads }),
    getEndpointWindowEntries(db, {
      endpoints: [{ id, modelSlug: endpoint.modelSlug }],
      workloadSlugs: ['cache-cold-2k', 'cache-warm-2k', 'structured-json-1k', 'tool-call-1k', 'prose-1k'],
    }),
    // agent turns and the cache lifetime: the rows /api/v1/endpoints/{id}/families serves (one composition)
    getEndpointFamilyFigures(db, { id, modelSlug: endpoint.modelSlug }, WINDOW_HOURS, now),
    // tier attainment over the standard windows, only where an objective is declared (decision 263)
    endpoint.tierObjective ? getEndpointTierWindows(db, { endpoint: { id, modelSlug: endpoint.modelSlug }, workloadSlug: workload }) : Promise.resolve([]),
  ]);
  const [samples, history, outcomes, recent, evidence, claims, disputes, notes, revisions, daily] = await Promise.all([
    // histogram samples cover exactly the leaderboard's window
    listEndpointSamples(db, { endpointId: id, workloadSlug: workload, from: window.windowStart ?? windowFrom, to: window.asOf ?? now, limit: 5000 }),
    listEndpointHistory(db, { endpointId: id, workloadSlug: workload, granularity: 'hour', from: rangeFrom, to: now, region: null }),
    listEndpointOutcomes(db, { endpointId: id, granularity: RANGES[range].outcomes, from: rangeFrom, to: now }),
    listEndpointRecentMeasurements(db, { endpointId: id, limit: 25 }),
    getEndpointEvidence(db, { endpointId: id, measurementId }),
    listClaims(db, { modelSlug: endpoint.modelSlug }),
    listDisputes(db, { endpointId: id, limit: 50 }),
    listAnnotations(db, { endpointId: id, from: new Date(now.getTime() - 90 * 86_400_000), until: now, limit: 100 }),
    listDisclosureRevisions(db, [id]),
    // change points of the daily median over 90 days (the API's), read against the declared changes (decision 178)
    listEndpointHistory(db, {
      endpointId: id,
      workloadSlug: workload,
      granularity: 'day',
      from: new Date(now.getTime() - 90 * 86_400_000),
      to: now,
      region: null,
    }),
  ]);
  const changedRevisions = revisions.filter((r) => r.number > 1);
  // daily medians on the o200k basis, as the chart above
  const changes: ChangeWithRevision[] = findChangePoints(
    daily.map((d) => ({ day: d.bucketStart.slice(0, 10), median: d.outputTokensPerSecondO200k?.p50 ?? null })),
  )
    .map((changePoint) => ({ changePoint, revision: revisionNear(changedRevisions, changePoint.day, CHANGE_POINT_REVISION_DAYS) }))
    .reverse();
  // On the hourly chart: each declared change as a dashed line "rev N", each change point as one labelled with its revision.
  const chartMarks = [
    ...changedRevisions
      .filter((r) => Date.parse(r.effectiveFrom) >= rangeFrom.getTime())
      .map((r) => ({ t: Date.parse(r.effectiveFrom), label: `rev ${r.number}`, color: 'var(--accent-2)' })),
    ...changes
      .filter((c) => Date.parse(`${c.changePoint.day}T00:00:00Z`) >= rangeFrom.getTime())
      .map((c) => ({
        t: Date.parse(`${c.changePoint.day}T00:00:00Z`),
        label: `${c.changePoint.label.split(' on ')[0]}${c.revision ? ` (rev ${c.revision.number})` : ''}`,
      })),
  ];
  // Annotated periods shaded on the history chart, numbered as in the list below it (decision 232).
  const periods = notes
    .filter((a) => a.untilAt >= rangeFrom)
    .map((a) => ({ from: Math.max(a.fromAt.getTime(), rangeFrom.getTime()), until: Math.min(a.untilAt.getTime(), now.getTime()), label: a.text }));
  // figures per workload = this endpoint's entries on its model's leaderboards (same numbers as the API)
  const byWorkload = window.figures;
  const current = byWorkload.find((w) => w.workloadSlug === workload) ?? null;
  const [hidden, honesty] = await Promise.all([
    getHiddenReasoning(db, { endpointId: id, workloadSlug: workload, from: window.windowStart ?? windowFrom, to: window.asOf ?? now }),
    getTokenHonesty(db, { endpointId: id, from: window.windowStart ?? windowFrom, to: window.asOf ?? now }),
  ]);
  // only claims about this endpoint's own system (not every claim of its provider; decision 073)
  const myClaims = claims.filter((c) => c.endpointIds.includes(id));
  const speedClaims = myClaims.filter((c) => c.metric === 'output_speed_tps_per_user');
  const timeline = evidence?.timeline ? decodeTimeline(evidence.timeline) : [];
  const qs = (extra: Record<string, string | number | null>) => {
    const p = new URLSearchParams({ workload, range });
    if (measurementId) p.set('m', String(measurementId));
    for (const [k, v] of Object.entries(extra)) {
      if (v === null) p.delete(k);
      else p.set(k, String(v));
    }
    return `?${p.toString()}`;
  };
  const speedBins = histogram(samples.outputTokensPerSecond, 20);
  const ttftBins = histogram(samples.ttftMs, 20);
  const meta: Array<[string, string | null]> = [
    ['Provider', endpoint.provider],
    ['Model', endpoint.model],
    ['Protocol', endpoint.protocol],
    ['API model id', endpoint.apiModelId],
    ['Base URL', endpoint.baseUrl],
    ['Hardware', endpoint.hardware],
    ['Engine', endpoint.engine],
    ['Precision', endpoint.precision],
    [
      'Speculative decoding',
      endpoint.speculativeDecoding ? `${endpoint.speculativeDecoding}${endpoint.draftLength ? `, draft length ${endpoint.draftLength}` : ''}` : 'none declared',
    ],
    ['Deployment', deploymentLabel(endpoint.deploymentKind)],
    ['Region', endpoint.region],
    [
      'Context window (declared)',
      endpoint.contextWindowTokens ? `${endpoint.contextWindowTokens.toLocaleString('en-US')} tokens` : 'not declared (no ~100k workloads)',
    ],
    [
      'Price (declared, USD per M tokens)',
      endpoint.pricing
        ? `input ${endpoint.pricing.inputUsdPerMTokens}, output ${endpoint.pricing.outputUsdPerMTokens}${endpoint.pricing.cachedInputUsdPerMTokens !== null ? `, cached input ${endpoint.pricing.cachedInputUsdPerMTokens}` : ''}; blended 3:1 ${fmt(endpoint.blendedUsdPerMTokens, 3)} (source ${endpoint.pricing.source}, as of ${endpoint.pricing.asOf})`
        : 'none declared',
    ],
    ['Status', endpoint.status === 'inactive' ? 'not measured on this site yet' : endpoint.status],
    ['Listed since', fmtUtc(endpoint.createdAt)],
  ];
  const rawJson = evidence ? `/api/v1/measurements/${evidence.id}` : null;

  return (
    <>
      <p className="muted small">
        <Link href={`/providers/${endpoint.providerSlug}`}>{endpoint.provider}</Link> · <Link href={`/models/${endpoint.modelSlug}`}>{endpoint.model}</Link>
      </p>
      <h1>
        {endpoint.provider}: {endpoint.slug}
      </h1>
      {endpoint.isCalibration ? (
        <p className="tag">
          calibration endpoint: configured {fmt(endpoint.calibrationTps)} TPS/user, TTFT {fmt(endpoint.calibrationTtftMs)} ms
        </p>
      ) : null}
      {endpoint.providerSlug.startsWith('synthetic-') ? (
        <p className="notice">Synthetic demo data written by the end-to-end tests; not a real provider.</p>
      ) : null}
      <PickerForm
        action={`/endpoints/${id}`}
        fields={[
          { name: 'workload', label: 'Workload', value: workload, options: workloadOptions(workloads) },
          { name: 'range', label: 'History range', value: range, options: Object.entries(RANGES).map(([k, v]) => ({ value: k, label: v.label })) },
        ]}
      />

      <div className="grid2">
        <section className="card" aria-labelledby="meta-heading">
          <h2 id="meta-heading">Declared metadata</h2>
          <dl className="meta" data-testid="endpoint-meta">
            {meta.map(([k, v]) => (
              <div key={k} style={{ display: 'contents' }}>
                <dt>{k}</dt>
                <dd>{v ?? '–'}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section className="card" aria-labelledby="summary-heading" data-testid="endpoint-summary">
          <h2 id="summary-heading">
            Last {WINDOW_HOURS} h, workload {workload}
          </h2>
          {current && current.n > 0 ? (
            <dl className="meta">
              <dt>
                TPS/user median <span className="muted">(o200k basis)</span>
              </dt>
              <dd data-metric="tps-p50">
                <strong>{fmt(current.outputTokensPerSecond?.p50, SPEED_DIGITS)}</strong> tokens/s (P25–P75{' '}
                {fmtRange(current.outputTokensPerSecond?.p25, current.outputTokensPerSecond?.p75)})
              </dd>
              <dt>How sure</dt>
              <dd data-metric="tps-median-ci">
                {current.outputTokensPerSecondMedianCi ? (
                  <>
                    the median lies in {fmtRange(current.outputTokensPerSecondMedianCi.low, current.outputTokensPerSecondMedianCi.high)} tokens/s (95 %
                    interval); endpoints whose intervals overlap are ranked as tied
                  </>
                ) : (
                  'too few samples for an interval of the median'
                )}
              </dd>
              <dt>TTFT median</dt>
              <dd data-metric="ttft-p50">
                {fmt(current.ttftMs?.p50)} ms (P95 {fmt(current.ttftMs?.p95)} ms)
              </dd>
              <dt>TTFAT median</dt>
              <dd>{fmt(current.ttfatMs?.p50)} ms</dd>
              <dt>E2E median</dt>
              <dd>{fmt(current.e2eMs?.p50)} ms</dd>
              <dt>
                <abbr title="inter-token latency: gap between token-bearing events ÷ tokens of the later event (chunk-aware)">ITL</abbr>
              </dt>
              <dd data-metric="itl">
                {current.medianItlP50Ms !== null && current.medianItlP95Ms !== null
                  ? `P50 ${fmt(current.medianItlP50Ms, 2)} ms/token, P95 ${fmt(current.medianItlP95Ms, 2)} ms/token (window medians of each request’s ITL)`
                  : '–'}
              </dd>
              <dt>Fidelity</dt>
              <dd data-metric="fidelity">
                {current.fidelity
                  ? `${fmtPct(current.fidelity.passRate, 1)} of ${plural(current.fidelity.n, 'check')} passed (95 % interval ${fmtPct(current.fidelity.interval.low, 0)}–${fmtPct(current.fidelity.interval.high, 0)})`
                  : 'no fidelity check in the window'}
              </dd>
              {hidden.measurements > 0 ? (
                <>
                  <dt>Hidden reasoning</dt>
                  <dd data-metric="hidden-reasoning">
                    {fmt(hidden.hiddenTokens / hidden.measurements, 0)} reasoning tokens per request reported but not streamed (
                    {fmtPct(hidden.reportedOutputTokens > 0 ? hidden.hiddenTokens / hidden.reportedOutputTokens : null, 1)} of the reported output,{' '}
                    {hidden.measurements} requests). They were generated before the first streamed token (inside TTFT), so neither speed basis counts them: the
                    reported basis takes them out of the provider’s count, the o200k basis counts only streamed text.
                  </dd>
                </>
              ) : null}
              <dt>Token counts</dt>
              <dd data-metric="token-honesty" data-verdict={honesty.verdict ?? undefined}>
                {honesty.ratio ? (
                  <>
                    {honesty.verdict === 'over_reported' || honesty.verdict === 'under_reported' ? (
                      <strong className="badge-bad">{honesty.verdict === 'over_reported' ? 'Over-reported: ' : 'Under-reported: '}</strong>
                    ) : null}
                    reported ÷ o200k {fmt(honesty.ratio.ratio, 3)} (95 % interval {fmt(honesty.ratio.low, 3)}–{fmt(honesty.ratio.high, 3)},{' '}
                    {plural(honesty.ratio.n, 'request')}, all workloads); expected {fmt(honesty.expected.low, 2)}–{fmt(honesty.expected.high, 2)} for{' '}
                    {honesty.expected.tokenizer} ({honesty.expected.assumption}). Speeds here use the o200k count, so a count above the text sent gains nothing.
                  </>
                ) : (
                  'no reported token counts in the window'
                )}
              </dd>
              <dt>Success rate</dt>
              <dd data-metric="success">
                {fmtPct(current.successes / current.n, 1)} of {current.n} probes
              </dd>
              {speedClaims.map((c) => (
                <div key={c.id} style={{ display: 'contents' }}>
                  <dt className="claim">Claimed (not measured)</dt>
                  <dd className="claim">
                    {boundWord(c.bound)}
                    {fmt(c.value)} TPS/user, {fmtClaimDate(c.claimDate)} ({c.measuredBy ?? c.provider} via {c.sourcePublisher ?? c.sourceTitle})
                  </dd>
                </div>
              ))}
            </dl>
          ) : (
            <>
              <p>No probes of this workload in the last {WINDOW_HOURS} h.</p>
              <EndpointStatusHint status={endpoint.status} />
              {speedClaims.length ? (
                <p className="claim">
                  Published claim (not our measurement):{' '}
                  {speedClaims
                    .map((c) => `${boundWord(c.bound)}${fmt(c.value)} TPS/user, ${fmtClaimDate(c.claimDate)} (${c.measuredBy ?? c.provider})`)
                    .join('; ')}
                </p>
              ) : null}
            </>
          )}
        </section>
      </div>

      <EndpointUptimePanel endpointId={id} />

      <h2 id="by-workload">Speed by workload category</h2>
      <p className="muted">
        Median output speed per workload over the last {WINDOW_HOURS} h. Speculative decoding{' '}
        {endpoint.speculativeDecoding ? `(${endpoint.speculativeDecoding} is declared here) ` : ''}speeds up predictable text most: code, math and JSON often
        gain more than prose.
      </p>
      {byWorkload.some((w) => w.outputTokensPerSecond) ? (
        <>
          <IntervalChart
            id="by-workload"
            title={`Output speed by workload, ${endpoint.slug}, last ${WINDOW_HOURS} h`}
            unit="tokens/s"
            unitShort="TPS/user"
            rows={byWorkload
              .filter((w) => w.outputTokensPerSecond)
              .map((w) => ({ key: w.workloadSlug, label: w.workloadSlug, sublabel: `${w.category} · n ${w.n}`, ...w.outputTokensPerSecond! }))}
          />
          <DataTable
            label="Speed by workload (table)"
            table="by-workload"
            caption={<>Output speed and TTFT by workload, last {WINDOW_HOURS} h</>}
            columns={[
              'Workload',
              'Category',
              { num: 'TPS/user P50' },
              { num: 'P25–P75' },
              { num: 'P5–P95' },
              { num: 'vs prose' },
              { num: 'TTFT P50 (ms)' },
              { num: 'Success' },
              { num: 'n' },
              { num: 'Left out' },
            ]}
          >
            {byWorkload.map((w) => {
              const prose = byWorkload.find((x) => x.category === 'prose' && x.outputTokensPerSecond)?.outputTokensPerSecond?.p50;
              const s = w.outputTokensPerSecond;
              return (
                <tr key={w.workloadSlug} data-workload={w.workloadSlug}>
                  <td>
                    <Link href={qs({ workload: w.workloadSlug })}>{w.workloadSlug}</Link>
                  </td>
                  <td>{w.category}</td>
                  <td className="num strong" data-metric="tps-p50">
                    {fmt(s?.p50, 1)}
                  </td>
                  <td className="num">{s ? `${fmtRange(s.p25, s.p75)}` : '–'}</td>
                  <td className="num muted">{s ? `${fmtRange(s.p5, s.p95)}` : '–'}</td>
                  <td className="num">{s && prose ? `${s.p50 >= prose ? '+' : '−'}${Math.abs((s.p50 / prose - 1) * 100).toFixed(0)}%` : '–'}</td>
                  <td className="num">{fmt(w.ttftMs?.p50)}</td>
                  <td className="num">{fmtPct(w.n ? w.successes / w.n : null, 1)}</td>
                  <td className="num">{w.n}</td>
                  <td className="num" data-metric="not-rankable">
                    {w.notRankable.total === 0
                      ? '0'
                      : `${w.notRankable.total} (${Object.entries(w.notRankable.byReason)
                          .map(([r, c]) => `${r.replaceAll('_', ' ')} ${c}`)
                          .join(', ')})`}
                  </td>
                </tr>
              );
            })}
          </DataTable>
          <p className="small muted" data-note="excluded">
            Left out: measurements of the window kept as evidence but not ranked (failed, unrecognised stream shape, token counts that contradict the text,
            buffered stream, stalled measuring loop); they enter no median, rank or history. See <Link href="/methodology">methodology</Link>.
          </p>
        </>
      ) : (
        <EmptyState id="by-workload" title="No speed figures by workload yet">
          <EndpointStatusHint status={endpoint.status} />
        </EmptyState>
      )}

      <h2 id="service-tier">Service tier: the published objective, checked</h2>
      <p className="muted">
        The tier this endpoint asks for and, where the provider publishes one, how often its {workload} requests met the objective over the last 24 h, 72 h and
        7 days.
      </p>
      <TierAttainmentPanel
        tier={endpoint.serviceTier}
        objective={endpoint.tierObjective}
        windows={tierWindows}
        workloadSlug={workload}
        endpointSlug={endpoint.slug}
      />

      <h2 id="prompt-cache">Prompt cache: TTFT cold against warm</h2>
      <p className="muted">
        The prompt-cache pair over the last {WINDOW_HOURS} h: a ~2,000-token request no cache can have seen, then at once a second one sharing its first 1,900
        tokens. A provider with a prompt cache answers the second sooner and reports the tokens it reused.
      </p>
      <PromptCachePanel
        entries={{ cold: cacheWindow.entries.get(`${id}|cache-cold-2k`) ?? null, warm: cacheWindow.entries.get(`${id}|cache-warm-2k`) ?? null }}
        endpointSlug={endpoint.slug}
        windowHours={WINDOW_HOURS}
      />

      <h2 id="structured-output">Structured output and tool calls: the speed penalty</h2>
      <p className="muted">
        Median output speed over the last {WINDOW_HOURS} h of the prose-1k story asked for through the protocol&apos;s structured-output request and as a forced
        tool call, against the same request in free text.
      </p>
      <StructuredPenaltyPanel
        free={cacheWindow.entries.get(`${id}|prose-1k`) ?? null}
        structured={[
          { slug: 'structured-json-1k', label: 'JSON schema', entry: cacheWindow.entries.get(`${id}|structured-json-1k`) ?? null },
          { slug: 'tool-call-1k', label: 'forced tool call', entry: cacheWindow.entries.get(`${id}|tool-call-1k`) ?? null },
        ]}
        endpointSlug={endpoint.slug}
        windowHours={WINDOW_HOURS}
      />

      <h2 id="agent-turns">Agent turns: TTFT and speed per turn</h2>
      <p className="muted">
        A three-turn conversation over the last {WINDOW_HOURS} h: each turn a forced tool call, its call and a ~300-token tool result sent back with the next
        turn in the protocol&apos;s own shapes, so the prompt grows every turn and a prompt cache can serve what came before.
      </p>
      <AgentTurnsPanel
        turns={AGENT_WORKLOADS.map((w) => ({ turn: w.agentTurn!, slug: w.slug, entry: families.entries.get(w.slug) ?? null }))}
        endpointSlug={endpoint.slug}
        windowHours={WINDOW_HOURS}
      />

      <h2 id="cache-lifetime">Prompt-cache lifetime</h2>
      <p className="muted">
        The same ~1,050-token prefix again after 2, 5 and 15 minutes since the request before (one series a day): the longest gap the provider still served from
        its cache.
      </p>
      <CacheLifetimePanel lifetime={families.lifetime} endpointSlug={endpoint.slug} windowHours={WINDOW_HOURS} />
      <p className="small muted" id="families-data">
        Every figure of the prompt cache, structured output, agent turns and cache lifetime sections as data:{' '}
        <a href={`/api/v1/endpoints/${id}/families`}>/api/v1/endpoints/{id}/families</a> (JSON) and{' '}
        <a href={`/api/v1/endpoints/${id}/families.csv`}>families.csv</a>.
      </p>

      <h2 id="by-input-size">Speed and TTFT against input size</h2>
      <p className="muted">
        Window medians (last {WINDOW_HOURS} h) of every workload of the grid by its input length: longer prompts cost prefill time (TTFT) and can slow decoding,
        and this is where providers differ most. The ~100k workloads run only where the declared context window holds them.
      </p>
      {(() => {
        const inputOf = new Map(workloads.map((w) => [w.slug, w.inputTokensTarget]));
        const rows = byWorkload.filter((w) => inputOf.has(w.workloadSlug));
        const speed = rows
          .filter((w) => w.outputTokensPerSecond)
          .map((w) => ({ key: w.workloadSlug, category: w.category, inputTokens: inputOf.get(w.workloadSlug)!, value: w.outputTokensPerSecond!.p50 }));
        const ttft = rows
          .filter((w) => w.ttftMs)
          .map((w) => ({ key: w.workloadSlug, category: w.category, inputTokens: inputOf.get(w.workloadSlug)!, value: w.ttftMs!.p50 }));
        if (speed.length === 0) return <p className="muted">No figures yet.</p>;
        const sizes = [...new Set(rows.map((w) => inputOf.get(w.workloadSlug)!))].sort((a, b) => a - b);
        const categories = [...new Set(rows.map((w) => w.category))].sort();
        const cell = (category: string, size: number) => rows.find((w) => w.category === category && inputOf.get(w.workloadSlug) === size);
        return (
          <>
            <div className="grid2">
              <div>
                <h3>Output speed (TPS/user P50)</h3>
                <InputSizeChart
                  id="speed-by-input"
                  points={speed}
                  unit="tokens/s"
                  title={`Output speed against input size, ${endpoint.slug}, last ${WINDOW_HOURS} h`}
                />
              </div>
              <div>
                <h3>TTFT (P50)</h3>
                <InputSizeChart id="ttft-by-input" points={ttft} unit="ms" title={`TTFT against input size, ${endpoint.slug}, last ${WINDOW_HOURS} h`} />
              </div>
            </div>
            <DataTable
              label="Speed and TTFT by input size (table)"
              table="by-input-size"
              caption={<>Output speed P50 (tokens/s) and TTFT P50 (ms) by category and input length, last {WINDOW_HOURS} h</>}
              head={
                <tr>
                  <th scope="col">Category</th>
                  {sizes.map((n) => (
                    <th key={n} scope="col" className="num">
                      ~{n.toLocaleString('en-US')} in: TPS/user · TTFT ms
                    </th>
                  ))}
                </tr>
              }
            >
              {categories.map((c) => (
                <tr key={c}>
                  <td>{c}</td>
                  {sizes.map((n) => {
                    const w = cell(c, n);
                    return (
                      <td key={n} className="num" data-workload={w?.workloadSlug}>
                        {w ? `${fmt(w.outputTokensPerSecond?.p50, 1)} · ${fmt(w.ttftMs?.p50)}` : '–'}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </DataTable>
          </>
        );
      })()}

      <h2 id="distributions">
        Distributions, workload {workload}, last {WINDOW_HOURS} h
      </h2>
      {samples.outputTokensPerSecond.length > 0 ? (
        <div className="grid2">
          <div>
            <h3>Output speed (TPS/user)</h3>
            <HistogramChart
              id="speed-histogram"
              bins={speedBins}
              title={`Distribution of output speed, ${endpoint.slug}, ${workload}`}
              unit="tokens/s"
              markers={current?.outputTokensPerSecond ? [{ value: current.outputTokensPerSecond.p50, label: 'median' }] : []}
            />
            <BinsTable bins={speedBins} unit="tokens/s" id="speed-bins" />
          </div>
          <div>
            <h3>Time to first token</h3>
            <HistogramChart
              id="ttft-histogram"
              color="var(--accent-2)"
              bins={ttftBins}
              title={`Distribution of TTFT, ${endpoint.slug}, ${workload}`}
              unit="ms"
              markers={current?.ttftMs ? [{ value: current.ttftMs.p50, label: 'median' }] : []}
            />
            <BinsTable bins={ttftBins} unit="ms" id="ttft-bins" />
          </div>
        </div>
      ) : (
        <EmptyState id="distributions" title="No successful probes to plot">
          <EndpointStatusHint status={endpoint.status} />
        </EmptyState>
      )}

      <h2 id="history">
        Hourly history, workload {workload}, {RANGES[range].label}
      </h2>
      {history.some((h) => h.outputTokensPerSecondO200k) ? (
        <>
          <TimeSeriesChart
            id="endpoint-history"
            granularity="hour"
            unit="tokens/s"
            title={`Hourly median output speed with P25–P75 band, ${endpoint.slug}, ${workload}`}
            periods={periods}
            annotations={chartMarks}
            series={endpointSpeedSeries(endpoint.slug, history, (h) => h.outputTokensPerSecondO200k)}
          />
          <DetailsTable
            summary={`Hourly history as a table (${history.length} hours)`}
            label="Hourly history (table)"
            table="endpoint-history"
            caption={`Hourly median output speed, ${endpoint.slug}, ${workload}`}
            columns={['Hour (UTC)', { num: 'TPS/user P50' }, { num: 'P25–P75' }, { num: 'TTFT P50 (ms)' }, { num: 'Probes' }, { num: 'Successes' }]}
          >
            {[...history].reverse().map((h) => (
              <tr key={h.bucketStart} data-bucket={h.bucketStart}>
                <td>{fmtUtc(h.bucketStart)}</td>
                <td className="num" data-metric="tps-p50">
                  {fmt(h.outputTokensPerSecondO200k?.p50, SPEED_DIGITS)}
                </td>
                <td className="num">{h.outputTokensPerSecondO200k ? fmtRange(h.outputTokensPerSecondO200k.p25, h.outputTokensPerSecondO200k.p75) : '–'}</td>
                <td className="num">{fmt(h.ttftMs?.p50)}</td>
                <td className="num">{h.n}</td>
                <td className="num">{h.successes}</td>
              </tr>
            ))}
          </DetailsTable>
        </>
      ) : (
        <EmptyState id="history" title="No history in this range">
          <EndpointStatusHint status={endpoint.status} />
        </EmptyState>
      )}

      <h2 id="outcomes">Success rate and failure kinds, all workloads, {RANGES[range].label}</h2>
      {outcomes.length > 0 ? (
        <>
          <OutcomesChart
            id="outcomes"
            granularity={RANGES[range].outcomes}
            title={`Probe outcomes per ${RANGES[range].outcomes}, ${endpoint.slug}`}
            rows={outcomes.map((o) => ({ t: Date.parse(o.bucketStart), successes: o.successes, kinds: o.errorKinds }))}
          />
          <DetailsTable
            summary="Outcomes as a table"
            label="Outcomes (table)"
            table="outcomes"
            caption={`Probe outcomes per ${RANGES[range].outcomes}`}
            head={
              <tr>
                <th scope="col">{RANGES[range].outcomes === 'day' ? 'Day' : 'Hour'} (UTC)</th>
                <NumTh>Probes</NumTh>
                <NumTh>Successes</NumTh>
                <NumTh>Success rate</NumTh>
                <th scope="col">Failures by kind</th>
              </tr>
            }
          >
            {[...outcomes].reverse().map((o) => (
              <tr key={o.bucketStart}>
                <td>{fmtUtc(o.bucketStart)}</td>
                <td className="num">{o.count}</td>
                <td className="num">{o.successes}</td>
                <td className="num">{fmtPct(o.count ? o.successes / o.count : null, 1)}</td>
                <td data-metric="failures">
                  {Object.entries(o.errorKinds)
                    .map(([k, n]) => `${k} ${n}`)
                    .join(', ') || '–'}
                </td>
              </tr>
            ))}
          </DetailsTable>
        </>
      ) : (
        <EmptyState id="outcomes" title="No probes in this range">
          <EndpointStatusHint status={endpoint.status} />
        </EmptyState>
      )}

      <h2 id="evidence">Evidence: one measurement&apos;s chunk arrivals</h2>
      {evidence && timeline.length > 0 ? (
        <section aria-label="Evidence viewer" data-testid="evidence" data-measurement={evidence.id}>
          <p className="muted">
            Measurement {evidence.id} · {fmtUtc(evidence.measuredAt, true)} · workload {evidence.workloadSlug} · region {evidence.workerRegion} ·{' '}
            <a href={rawJson!} data-testid="raw-json">
              raw JSON (with timeline)
            </a>
          </p>
          <TimelineChart
            id="evidence-timeline"
            chunks={timeline}
            ttftMs={evidence.ttftMs}
            e2eMs={evidence.e2eMs}
            title={`Tokens received over time, measurement ${evidence.id}`}
          />
          <dl className="meta">
            <dt>TTFT</dt>
            <dd>
              {fmt(evidence.ttftMs, 1)} ms{' '}
              <span className="muted" data-metric="evidence-ttft-bound">
                {boundText(evidence.ttftBoundMs, 'ms')}
              </span>
            </dd>
            <dt>Output speed</dt>
            <dd data-metric="evidence-speed">
              {fmt(evidence.outputTokensPerSecond, 1)} tokens/s{' '}
              <span className="muted" data-metric="evidence-speed-bound">
                {boundText(evidence.speedBoundPct, '%')}
              </span>
            </dd>
            <dt>E2E</dt>
            <dd>
              {fmt(evidence.e2eMs, 1)} ms <span className="muted">{boundText(evidence.e2eBoundMs, 'ms')}</span>
            </dd>
            <dt>
              <Link href="/methodology#error-bound">Error bound</Link>
            </dt>
            <dd data-metric="evidence-bound">{describeBoundEvidence(evidence.evidenceJson, evidence.rankable, evidence.notRankableReasons)}</dd>
            <dt>Tokens (reported / o200k)</dt>
            <dd>
              {evidence.outputTokensReported ?? '–'} / {evidence.outputTokensO200k ?? '–'}
            </dd>
            <dt>Content chunks</dt>
            <dd data-metric="evidence-chunks">{evidence.contentChunks}</dd>
          </dl>
          <details>
            <summary>Chunk arrivals as a table ({timeline.length} chunks)</summary>
            <DataTable
              label="Chunk arrivals (table)"
              table="evidence-chunks"
              caption={<>Chunk arrivals of measurement {evidence.id}</>}
              columns={[{ num: '#' }, { num: 'Arrived (ms)' }, { num: 'Tokens' }, { num: 'Tokens so far' }, 'Channel']}
            >
              {timeline
                .reduce<Array<{ i: number; atMs: number; tokens: number; total: number; channel: string }>>(
                  (acc, c, i) => [
                    ...acc,
                    { i: i + 1, atMs: c.atMs, tokens: c.tokens, total: (acc[acc.length - 1]?.total ?? 0) + c.tokens, channel: c.channel },
                  ],
                  [],
                )
                .map((c) => (
                  <tr key={c.i}>
                    <td className="num">{c.i}</td>
                    <td className="num">{c.atMs.toFixed(1)}</td>
                    <td className="num">{c.tokens}</td>
                    <td className="num">{c.total}</td>
                    <td>{c.channel}</td>
                  </tr>
                ))}
            </DataTable>
          </details>
        </section>
      ) : (
        <EmptyState id="evidence" title={measurementId ? `Measurement ${measurementId} has no timeline to show` : 'No measurement with a timeline yet'}>
          {measurementId ? (
            <p>It may belong to another endpoint or be a failed probe without chunks. Pick one from the list below.</p>
          ) : (
            <EndpointStatusHint status={endpoint.status} />
          )}
        </EmptyState>
      )}

      <h3>Recent measurements</h3>
      <p className="muted">
        All raw evidence: <a href={`/api/v1/endpoints/${id}/measurements`}>JSON with timelines</a> ·{' '}
        <a href={`/api/v1/endpoints/${id}/measurements?timeline=0`}>JSON without timelines</a> ·{' '}
        <a href={`/api/v1/endpoints/${id}/history?workload=${workload}&granularity=hour&range=${range === '90d' ? '90d' : range}`}>hourly rollups (JSON)</a>
      </p>
      {recent.length > 0 ? (
        <DataTable
          label="Recent measurements (table)"
          table="recent"
          caption={<>The 25 newest measurements of {endpoint.slug}</>}
          columns={[
            'Measured at (UTC)',
            'Workload',
            'Outcome',
            { num: 'TTFT (ms)' },
            { num: 'TPS/user' },
            { num: 'Bound (TTFT ms / speed %)' },
            { num: 'E2E (ms)' },
            { num: 'Tokens (reported / o200k)' },
            { num: 'Chunks' },
            'Evidence',
          ]}
        >
          {recent.map((m) => (
            <tr key={m.id} data-measurement={m.id} className={evidence?.id === m.id ? 'selected' : undefined}>
              <td>{fmtUtc(m.measuredAt, true)}</td>
              <td>{m.workloadSlug}</td>
              <td className={m.outcome === 'success' ? 'badge-ok' : 'badge-bad'}>
                {m.outcome === 'success' ? (m.valid ? 'success' : 'success (invalid timing)') : m.errorKind}
              </td>
              <td className="num">{fmt(m.ttftMs, 1)}</td>
              <td className="num">{fmt(m.outputTokensPerSecond, 1)}</td>
              <td className="num" data-metric="bound">
                {m.outcome === 'success'
                  ? `${m.ttftBoundMs === null ? '?' : `+${m.ttftBoundMs.toFixed(1)}`} / ${m.speedBoundPct === null ? '?' : `±${m.speedBoundPct.toFixed(2)}`}`
                  : '–'}
              </td>
              <td className="num">{fmt(m.e2eMs)}</td>
              <td className="num">
                {m.outputTokensReported ?? '–'} / {m.outputTokensO200k ?? '–'}
              </td>
              <td className="num">{m.contentChunks}</td>
              <td>
                {m.hasTimeline ? (
                  evidence?.id === m.id ? (
                    <span aria-current="true">shown above</span>
                  ) : (
                    <Link href={`${qs({ m: m.id })}#evidence`}>
                      view timeline<span className="sr-only"> of measurement {m.id}</span>
                    </Link>
                  )
                ) : (
                  <span className="muted">no chunks</span>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      ) : (
        <EmptyState id="recent" title="No measurements yet">
          <EndpointStatusHint status={endpoint.status} />
        </EmptyState>
      )}

      <RevisionHistory revisions={revisions} changes={changes} />

      <section className="card" aria-labelledby="disputes-heading" data-testid="disputes">
        <h2 id="disputes-heading">Disputes and annotations</h2>
        {periods.length > 0 ? (
          <ol className="small" aria-label="Annotated periods (shaded on the history chart)">
            {periods.map((p, i) => (
              <li key={i} data-annotation={i + 1}>
                {fmtUtc(new Date(p.from).toISOString())} – {fmtUtc(new Date(p.until).toISOString())}: {p.label}
              </li>
            ))}
          </ol>
        ) : null}
        {disputes.length > 0 ? (
          <ul aria-label="Disputes">
            {disputes.map((d) => (
              <li key={d.id} data-dispute={d.id} data-status={d.status}>
                <strong>Dispute {d.id}</strong> ({d.scope.replace('_', ' ')}, {fmtUtc(d.fromAt.toISOString())} – {fmtUtc(d.untilAt.toISOString())}): {d.reason}{' '}
                <span className="badge">
                  {d.status}
                  {d.exclude ? ', excluded from rankings' : ''}
                </span>
                {d.resolution ? <span className="small muted"> Decision: {d.resolution}</span> : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="small muted">
            No disputes. An endpoint’s owner may dispute a measurement or a window from the dashboard; decisions are public here (
            <Link href="/rules#open-dispute">rules</Link>).
          </p>
        )}
      </section>

      <section className="card" aria-labelledby="share-endpoint">
        <h2 id="share-endpoint">Compare and share</h2>
        <ul className="link-list">
          <li>
            <Link href={`/compare?e=${id}&workload=${workload}`}>Compare this endpoint with others</Link>
          </li>
          <li>
            <Link href={`/endpoints/${id}/sweeps`}>Concurrency sweeps (TPS/user against aggregate throughput)</Link>
          </li>
          <li>
            <Link href={`/?model=${endpoint.modelSlug}&workload=${workload}`}>Leaderboard of {endpoint.model}</Link>
          </li>
          <li>
            <Link href={`/embed/endpoints/${id}?workload=${workload}`}>Embeddable history chart</Link>
          </li>
        </ul>
      </section>
    </>
  );
}

/** Histogram bins as a table (the charts' accessible alternative). */
function BinsTable({ bins, unit, id }: { bins: Array<{ from: number; to: number; count: number }>; unit: string; id: string }) {
  return (
    <details>
      <summary>Bins as a table</summary>
      <DataTable
        label={`Histogram bins in ${unit} (table)`}
        table={id}
        head={
          <tr>
            <th scope="col">From ({unit})</th>
            <th scope="col">To ({unit})</th>
            <NumTh>Probes</NumTh>
          </tr>
        }
      >
        {bins.map((b) => (
          <tr key={b.from}>
            <td>{fmt(b.from)}</td>
            <td>{fmt(b.to)}</td>
            <td className="num">{b.count}</td>
          </tr>
        ))}
      </DataTable>
    </details>
  );
}

/** "(+0.4 ms)" / "(±0.12 %)" beside a figure: its error bound (decision 180); "(bound unknown)" when none. */
function boundText(v: number | null | undefined, unit: 'ms' | '%'): string {
  if (v === null || v === undefined) return '(bound unknown)';
  return unit === 'ms' ? `(true value up to ${v.toFixed(2)} ms lower)` : `(± ${v.toFixed(2)} %)`;
}

/** One line on what the bound was made of (evidence.timing) and whether it allowed ranking. */
function describeBoundEvidence(evidence: unknown, rankable: boolean, reasons: string[]): string {
  const t = (evidence as { timing?: Record<string, number | null> } | null)?.timing;
  const verdict = reasons.includes('timing_uncertain')
    ? 'beyond the published accuracy or unknown: not ranked (timing_uncertain)'
    : rankable
      ? 'within the published accuracy'
      : 'timing within the published accuracy';
  if (!t) return `no bound recorded (measurement before decision 180, or failed before any stream); ${verdict}`;
  const ms = (x: number | null | undefined) => (x === null || x === undefined ? 'unknown' : `${x.toFixed(2)} ms`);
  return `first token read up to ${ms(t.firstTokenLatenessMs)} late, last token up to ${ms(t.lastTokenLatenessMs)}, request start up to ${ms(t.startSlackMs)} early; run-queue wait ${ms(t.runQueueMs)}, GC ${ms(t.gcPauseMs)} over the probe; ${t.firstReadEvents ?? 1} / ${t.lastReadEvents ?? 1} events in the first / last read — ${verdict}`;
}
