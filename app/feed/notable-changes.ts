/**
 * Notable changes for the Atom feed and the /feed page, derived from daily rollups (never stored):
 * - change points of an endpoint's daily median output speed (db/queries/history change points);
 * - a new #1 on a model × workload board by daily median, with hysteresis: a challenger takes #1
 *   only when its daily median beats the holder's by more than 5 % that day (ties do not flap);
 * - endpoints joining: listed in the period (a catalog endpoint still waiting for its key is not
 *   announced until it is measured), or first measured in the period (its key was set);
 * - endpoints leaving: retired by their provider in the period (kept with their history, decision 222);
 * - fidelity drops: the first day of each run of days on which an endpoint confidently passed
 *   fewer than 95 % of its fidelity checks (lib/fidelity/fidelity-summary findFidelityDrops).
 * Calibration endpoints are left out (they are our reference, not a ranking).
 */
import { listEndpoints, listModels, listWorkloads } from '@/db/queries/catalog';
import { listDailyFidelity } from '@/db/queries/fidelity';
import { listDisputes } from '@/db/queries/disputes';
import { listModelHistory } from '@/db/queries/history';
import { DEFAULT_SPEED_BASIS } from '@/lib/stats/window-stats';
import { findFidelityDrops } from '@/lib/fidelity/fidelity-summary';
import { listEndpointsCreatedBetween, listEndpointsFirstMeasuredBetween, listEndpointsRetiredBetween } from '@/db/queries/ui-endpoint';
import type { Db } from '@/db/client';
import { fmt } from '@/app/_components/format';

/** One feed entry; `updated` is ISO UTC, `path` is site-relative. */
export interface NotableChange {
  id: string;
  kind: 'new-leader' | 'change-point' | 'new-endpoint' | 'endpoint-leaves' | 'fidelity-drop' | 'dispute';
  title: string;
  summary: string;
  updated: string;
  path: string;
}

/** Margin by which a challenger's daily median must beat the current #1 to take its place. */
export const LEADER_MARGIN = 0.05;
/** Days a leader needs at least this many probes to count. */
const MIN_DAY_COUNT = 3;

/** The notable changes of the last `days` days before `now`, newest first, at most `limit`. */
export async function listNotableChanges(db: Db, p: { now: Date; days: number; limit: number }): Promise<NotableChange[]> {
  const from = new Date(p.now.getTime() - p.days * 86400_000);
  const [models, workloads, endpoints, created, firstMeasured, retired, fidelityDays] = await Promise.all([
    listModels(db),
    listWorkloads(db),
    listEndpoints(db),
    listEndpointsCreatedBetween(db, { from, to: p.now }),
    listEndpointsFirstMeasuredBetween(db, { from, to: p.now }),
    listEndpointsRetiredBetween(db, { from, to: p.now }),
    listDailyFidelity(db, { from, to: p.now }),
  ]);
  const calibration = new Set(endpoints.filter((e) => e.providerKind === 'calibration').map((e) => e.id));
  const out: NotableChange[] = [];
  for (const model of models) {
    for (const w of workloads.filter((x) => x.scheduled)) {
      const series = (
        await listModelHistory(db, { modelSlug: model.slug, workloadSlug: w.slug, from, to: p.now, region: null, basis: DEFAULT_SPEED_BASIS })
      ).filter((s) => !calibration.has(s.endpoint.id) && s.days.length > 0);
      if (series.length === 0) continue;
      for (const s of series) {
        for (const cp of s.changePoints) {
          out.push({
            id: `change-point/${s.endpoint.id}/${w.slug}/${cp.day}`,
            kind: 'change-point',
            title: `${s.endpoint.slug}: ${cp.label} (${model.name}, ${w.slug})`,
            summary: `The daily median output speed of ${s.endpoint.provider}'s ${s.endpoint.slug} moved from ${fmt(cp.before, 1)} to ${fmt(cp.after, 1)} tokens/s (${cp.label}; Mann-Whitney p ${cp.pValue < 0.001 ? '< 0.001' : cp.pValue.toFixed(3)}).`,
            updated: `${cp.day}T00:00:00.000Z`,
            path: `/models/${model.slug}?workload=${w.slug}&range=90d`,
          });
        }
      }
      // new #1 by daily median, with hysteresis
      const days = [...new Set(series.flatMap((s) => s.days.map((d) => d.day)))].sort();
      let leader: { id: number; slug: string; provider: string } | null = null;
      for (const day of days) {
        const today = series
          .map((s) => ({ e: s.endpoint, d: s.days.find((x) => x.day === day) }))
          .filter((x): x is { e: (typeof series)[number]['endpoint']; d: NonNullable<typeof x.d> } =>
            Boolean(x.d && x.d.median !== null && x.d.n >= MIN_DAY_COUNT),
          )
          .sort((a, b) => b.d.median! - a.d.median!);
        const best = today[0];
        if (!best) continue;
        const holder = leader ? today.find((x) => x.e.id === leader!.id) : undefined;
        const takes = !leader || (best.e.id !== leader.id && (!holder || best.d.median! > holder.d.median! * (1 + LEADER_MARGIN)));
        if (!takes) continue;
        const previous = leader;
        leader = best.e;
        out.push({
          id: `new-leader/${model.slug}/${w.slug}/${day}`,
          kind: 'new-leader',
          title: `New #1 for ${model.name} (${w.slug}): ${best.e.slug}`,
          summary: `${best.e.provider}'s ${best.e.slug} had the highest daily median output speed on ${day}: ${fmt(best.d.median, 1)} tokens/s${previous ? `, taking #1 from ${previous.slug}${holder ? ` (${fmt(holder.d.median, 1)} tokens/s)` : ''}` : ' (first day with a leader in this period)'}.`,
          updated: `${day}T00:00:00.000Z`,
          path: `/?model=${model.slug}&workload=${w.slug}`,
        });
      }
    }
  }
  const byId = new Map(endpoints.map((e) => [e.id, e]));
  const daysByEndpoint = new Map<number, typeof fidelityDays>();
  for (const d of fidelityDays) daysByEndpoint.set(d.endpointId, [...(daysByEndpoint.get(d.endpointId) ?? []), d]);
  for (const [endpointId, days] of daysByEndpoint) {
    const e = byId.get(endpointId);
    if (!e) continue; // not public
    for (const drop of findFidelityDrops(days)) {
      const pct = (x: number) => `${fmt(x * 100, 0)} %`;
      out.push({
        id: `fidelity-drop/${e.id}/${drop.day}`,
        kind: 'fidelity-drop',
        title: `Fidelity drop: ${e.slug} passed ${pct(drop.summary.passRate)} of its checks (${drop.day})`,
        summary: `${e.provider}'s ${e.slug} (${e.model}) answered ${drop.passed} of ${drop.n} fidelity checks correctly on ${drop.day} (95 % interval ${pct(drop.summary.interval.low)}–${pct(drop.summary.interval.high)}): known arithmetic, code output, JSON schema and access-code recall. Its speed may come with wrong or truncated answers.`,
        updated: `${drop.day}T23:59:59.000Z`,
        path: `/endpoints/${e.id}`,
      });
    }
  }
  const measuredIds = new Set(firstMeasured.map((e) => e.id));
  const createdIds = new Set(created.map((e) => e.id));
  for (const e of created) {
    if (calibration.has(e.id)) continue;
    // A catalog endpoint waiting for its provider's key (or listed already retired) joins when it is first measured, not when listed.
    const status = byId.get(e.id)?.status;
    if ((status === 'inactive' || status === 'retired') && !measuredIds.has(e.id)) continue;
    out.push({
      id: `new-endpoint/${e.id}`,
      kind: 'new-endpoint',
      title: `New endpoint: ${e.provider} ${e.slug} (${e.model})`,
      summary: `${e.provider} serving ${e.model}${[e.hardware, e.engine].filter(Boolean).length ? ` on ${[e.hardware, e.engine].filter(Boolean).join(', ')}` : ''} is now listed.`,
      updated: e.createdAt.toISOString(),
      path: `/endpoints/${e.id}`,
    });
  }
  for (const e of firstMeasured) {
    if (calibration.has(e.id) || createdIds.has(e.id)) continue; // listed in the period: announced above
    out.push({
      id: `endpoint-joins/${e.id}`,
      kind: 'new-endpoint',
      title: `Endpoint joins: ${e.provider} ${e.slug} (${e.model})`,
      summary: `${e.provider}'s ${e.slug} (${e.model}), listed since ${e.createdAt.toISOString().slice(0, 10)}, is measured from ${e.firstHour.toISOString().slice(0, 13)}:00 UTC on.`,
      updated: e.firstHour.toISOString(),
      path: `/endpoints/${e.id}`,
    });
  }
  for (const e of retired) {
    if (calibration.has(e.id) || !e.retiredAt) continue;
    out.push({
      id: `endpoint-leaves/${e.id}`,
      kind: 'endpoint-leaves',
      title: `Endpoint leaves: ${e.provider} ${e.slug} (${e.model})`,
      summary: `${e.provider} retired ${e.slug} (${e.model}) on ${e.retiredAt.toISOString().slice(0, 10)}. It is no longer probed; its measurements and history stay.`,
      updated: e.retiredAt.toISOString(),
      path: `/endpoints/${e.id}`,
    });
  }
  // Disputes opened and decided in the period (decision 232): public as soon as they happen.
  for (const d of await listDisputes(db, { limit: 200 })) {
    const when = d.resolvedAt ?? d.createdAt;
    if (when < from || when > p.now) continue;
    out.push({
      id: `dispute/${d.id}/${d.status}`,
      kind: 'dispute',
      title:
        d.status === 'open' ? `Dispute opened: ${d.endpointSlug}` : `Dispute ${d.status}: ${d.endpointSlug}${d.exclude ? ' (excluded from rankings)' : ''}`,
      summary: `${d.scope.replace('_', ' ')} ${d.fromAt.toISOString().slice(0, 16)}–${d.untilAt.toISOString().slice(0, 16)} UTC: ${d.reason}${d.resolution ? ` Decision: ${d.resolution}` : ''}`,
      updated: when.toISOString(),
      path: `/endpoints/${d.endpointId}#disputes-heading`,
    });
  }
  return out.sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : a.id < b.id ? -1 : 1)).slice(0, p.limit);
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Atom 1.0 document (RFC 4287) of the given entries; `origin` like "https://tokenpace.example". */
export function renderAtom(entries: NotableChange[], origin: string, now: Date): string {
  const updated = entries[0]?.updated ?? now.toISOString();
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    '  <title>Tokenpace: notable changes</title>',
    '  <subtitle>New #1 endpoints, change points of output speed per user, new endpoints, fidelity drops</subtitle>',
    `  <id>${esc(origin)}/feed.xml</id>`,
    `  <link rel="self" type="application/atom+xml" href="${esc(origin)}/feed.xml"/>`,
    `  <link rel="alternate" type="text/html" href="${esc(origin)}/feed"/>`,
    `  <updated>${updated}</updated>`,
    '  <author><name>Tokenpace</name></author>',
    ...entries.flatMap((e) => [
      '  <entry>',
      `    <id>${esc(origin)}/feed/${esc(e.id)}</id>`,
      `    <title>${esc(e.title)}</title>`,
      `    <link rel="alternate" type="text/html" href="${esc(origin + e.path)}"/>`,
      `    <updated>${e.updated}</updated>`,
      `    <category term="${e.kind}"/>`,
      `    <summary>${esc(e.summary)}</summary>`,
      '  </entry>',
    ]),
    '</feed>',
    '',
  ];
  return lines.join('\n');
}
