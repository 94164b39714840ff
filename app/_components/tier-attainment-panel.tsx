/**
 * The endpoint page's service-tier section (issue 25 item 4, decisions 262-263): the tier the
 * endpoint asks for, the provider's published objective with its source, and the objective's
 * attainment over the standard windows (24 h, 72 h, 7 d): the share of rankable measurements that
 * met it, as an interval chart (share and its 95 % Wilson interval, the promised share as a
 * marker) with a table alternative (share, interval, n, promised share, met / missed /
 * undecided). Every figure is the endpoint's leaderboard entry of the one engine
 * (`tierObjectiveAttainment`); the verdict compares its interval with the promised share, nothing
 * else is computed here. Server component, no hooks.
 */
import Link from 'next/link';
import type { ServiceTierDeclaration, TierObjective } from '@/lib/probe/service-tier';
import { fmt, fmtPct } from './format';
import { IntervalChart } from './interval-chart';
import type { WindowEntry } from './endpoint-window';
import { NumTh } from './num-th';

/** One standard window's attainment (null: no judged measurement in it). */
export interface TierWindow {
  hours: number;
  attainment: WindowEntry['tierObjectiveAttainment'];
}

/** met when the interval's low end reaches the promised share, missed when its high end is under it, else undecided. */
export function tierVerdict(attainment: NonNullable<WindowEntry['tierObjectiveAttainment']>, promised: number): 'met' | 'missed' | 'undecided' {
  if (attainment.interval.low >= promised) return 'met';
  if (attainment.interval.high < promised) return 'missed';
  return 'undecided';
}

/** "service_tier: priority" / "speed: fast" / the header form. */
export function describeTier(tier: ServiceTierDeclaration): string {
  return tier.parameter.startsWith('X-') ? `header ${tier.parameter}: ${tier.value}` : `${tier.parameter}: "${tier.value}"`;
}

/** "99 % of requests above 50 tokens/s (TPS/user) and TTFT ≤ 500 ms". */
export function describeObjective(o: TierObjective): string {
  const parts = [
    o.minOutputTokensPerSecond !== null ? `above ${fmt(o.minOutputTokensPerSecond, 0)} tokens/s (TPS/user)` : null,
    o.maxTtftMs !== null ? `TTFT at most ${fmt(o.maxTtftMs, 0)} ms` : null,
  ].filter(Boolean);
  return `${fmtPct(o.share, o.share * 100 === Math.round(o.share * 100) ? 0 : 1)} of requests ${parts.join(' and ')}`;
}

export function TierAttainmentPanel({
  tier,
  objective,
  windows,
  workloadSlug,
  endpointSlug,
}: {
  tier: ServiceTierDeclaration | null;
  objective: TierObjective | null;
  windows: TierWindow[];
  workloadSlug: string;
  endpointSlug: string;
}) {
  if (!tier && !objective)
    return (
      <p className="muted" data-empty="tier">
        This endpoint asks for no service tier: the provider&apos;s default tier, with no published objective to check.
      </p>
    );
  const declared = (
    <p data-tier="declared">
      {tier ? (
        <>
          Every probe of this endpoint sends <code>{describeTier(tier)}</code>.{' '}
        </>
      ) : (
        'No tier parameter is sent. '
      )}
      {objective ? (
        <>
          The provider publishes an objective: <strong data-tier="objective">{describeObjective(objective)}</strong> (
          <a href={objective.sourceUrl} rel="noopener noreferrer">
            source
          </a>
          ).
        </>
      ) : (
        'The provider publishes no objective for it, so no attainment is shown.'
      )}
    </p>
  );
  if (!objective) return declared;
  const measured = windows.filter((w): w is TierWindow & { attainment: NonNullable<TierWindow['attainment']> } => w.attainment !== null);
  if (measured.length === 0)
    return (
      <>
        {declared}
        <p className="muted" data-empty="tier-attainment">
          No rankable {workloadSlug} measurement judged against the objective yet.
        </p>
      </>
    );
  const pct = (v: number) => v * 100;
  return (
    <>
      {declared}
      <IntervalChart
        id="tier-attainment"
        title={`Share of ${workloadSlug} requests meeting the published objective, ${endpointSlug}, 24 h, 72 h and 7 days`}
        unit="% of requests"
        unitShort="% meeting"
        digits={1}
        rows={measured.map((w) => ({
          key: `${w.hours}h`,
          label: w.hours % 24 === 0 && w.hours > 24 ? `${w.hours / 24} days` : `${w.hours} h`,
          sublabel: `n ${w.attainment.n}`,
          p5: pct(w.attainment.interval.low),
          p25: pct(w.attainment.interval.low),
          p50: pct(w.attainment.share),
          p75: pct(w.attainment.interval.high),
          p95: pct(w.attainment.interval.high),
          claims: [{ value: pct(objective.share), bound: 'ge', label: `promised ${fmtPct(objective.share, 1)}`, source: 'the provider’s published objective' }],
        }))}
      />
      <div className="table-wrap" tabIndex={0} role="region" aria-label="Tier objective attainment (table)">
        <table data-table="tier-attainment">
          <caption className="sr-only">
            Share of rankable {workloadSlug} measurements meeting the published tier objective, by window, with 95 % Wilson interval
          </caption>
          <thead>
            <tr>
              <th scope="col">Window</th>
              <NumTh>Meeting the objective</NumTh>
              <NumTh>95 % interval</NumTh>
              <NumTh>n</NumTh>
              <NumTh>Promised</NumTh>
              <th scope="col">Verdict</th>
            </tr>
          </thead>
          <tbody>
            {windows.map((w) => (
              <tr key={w.hours} data-window={`${w.hours}h`}>
                <td>{w.hours % 24 === 0 && w.hours > 24 ? `${w.hours / 24} days` : `${w.hours} h`}</td>
                <td className="num strong" data-metric="attainment">
                  {w.attainment ? fmtPct(w.attainment.share, 1) : '–'}
                </td>
                <td className="num">{w.attainment ? `${fmtPct(w.attainment.interval.low, 1)}–${fmtPct(w.attainment.interval.high, 1)}` : '–'}</td>
                <td className="num">{w.attainment ? w.attainment.n : 0}</td>
                <td className="num">{fmtPct(objective.share, 1)}</td>
                <td data-metric="verdict">{w.attainment ? tierVerdict(w.attainment, objective.share) : 'no data'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="small muted" data-note="tier-attainment">
        Each {workloadSlug} measurement is judged when it is stored against the objective declared then: TPS/user strictly above the threshold, TTFT at or under
        its threshold. Met: the interval&apos;s low end reaches the promised share; missed: its high end is under it. The provider may compute its own figure
        differently (OpenAI: p50 per 5 minutes). See <Link href="/methodology#service-tiers">methodology</Link>.
      </p>
    </>
  );
}
