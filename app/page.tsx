import type { Metadata } from 'next';
import Link from 'next/link';
import { publicOrigin } from '@/lib/security/public-origin';
import { notFound } from 'next/navigation';
import { connection } from 'next/server';
import { Suspense } from 'react';
import { listClaims } from '@/db/queries/claims';
import { listModels, listWorkloads } from '@/db/queries/catalog';
import { getDb } from '@/server/shared';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { getLeaderboardAnswer } from '@/server/leaderboard';
import { CalibrationBadge } from './_components/calibration-badge';
import { CalibrationPanel } from './_components/calibration-panel';
import { ClaimsList } from './_components/claims-list';
import { LeaderboardLive } from './_components/leaderboard-live';
import { SORT_KEYS, type SortDir, type SortKey } from './_components/leaderboard-sort';
import { InvalidFilterNotice, LeaderboardPickers } from './_components/pickers';
import { RegionCoverage } from './_components/region-coverage';
import { listRegionNames } from '@/server/regions';
import { findUnknownBoardField } from '@/server/board-subject';
import { ModelComparisonHome } from './_components/model-comparison-home';

type Search = Promise<Record<string, string | string[] | undefined>>;

const one = (v: string | string[] | undefined) => (typeof v === 'string' ? v : undefined);

export const metadata: Metadata = { title: 'Models compared' };

/**
 * Home. Without `model`: every model compared by its fastest endpoint (app/_components/
 * model-comparison-home, issue 27). With `?model=slug`: that model's board (below), one click from
 * the comparison.
 */
export default async function HomePage({ searchParams }: { searchParams: Search }) {
  await connection();
  const sp = await searchParams;
  if (one(sp.model) === undefined) {
    const flat = Object.fromEntries(Object.entries(sp).map(([k, v]) => [k, one(v)]));
    return <ModelComparisonHome db={getDb()} sp={flat} />;
  }
  return <ModelBoard sp={sp} />;
}

/**
 * A model's board: the model leaderboard. Model, workload, window and region pickers live in the URL (?model=…&workload=
 * …&window=72h&region=eu; no region = all regions merged; ?sort=ttft&dir=asc keeps a table sort; ?at=ISO
 * pins the board to an instant). The board says which worker regions it covers.
 * Ranking chart, TTFT-vs-speed scatter, sortable table, claims as markers, calibration badge.
 */
async function ModelBoard({ sp }: { sp: Record<string, string | string[] | undefined> }) {
  // An empty region (the picker's "All regions") means merged.
  const parsed = leaderboardQuerySchema.safeParse({
    model: one(sp.model),
    workload: one(sp.workload),
    window: one(sp.window),
    at: one(sp.at),
    region: one(sp.region) || undefined,
  });
  const q = parsed.success ? parsed.data : leaderboardQuerySchema.parse({});
  const sortParam = one(sp.sort);
  const sort: SortKey = sortParam && Object.hasOwn(SORT_KEYS, sortParam) ? (sortParam as SortKey) : 'rank';
  const dir: SortDir = one(sp.dir) === 'desc' ? 'desc' : one(sp.dir) === 'asc' ? 'asc' : SORT_KEYS[sort].better;
  const db = getDb();
  // A model, workload or region that does not exist is a 404 before anything is computed or stored
  // (never URL text as a model's name, never a stored empty board: issue 19 #5, #14).
  if (await findUnknownBoardField(db, q)) notFound();
  const [models, workloads, answer, calibration, claims, regions] = await Promise.all([
    listModels(db),
    listWorkloads(db),
    getLeaderboardAnswer(db, q),
    getLeaderboardAnswer(db, { ...q, model: 'tokenpace-reference', at: undefined, region: undefined }),
    listClaims(db, { modelSlug: q.model }),
    listRegionNames(db),
  ]);
  const model = models.find((m) => m.slug === q.model);
  const workload = workloads.find((w) => w.slug === q.workload);
  const speedClaims = claims.filter((c) => c.metric === 'output_speed_tps_per_user');
  const otherClaims = claims.filter((c) => c.metric !== 'output_speed_tps_per_user');
  const windowParam = `${q.window}h`;
  const query = new URLSearchParams({
    model: q.model,
    workload: q.workload,
    window: windowParam,
    ...(q.at ? { at: q.at } : {}),
    ...(q.region ? { region: q.region } : {}),
  }).toString();
  const caption = `${model?.name ?? q.model}, workload ${q.workload}, last ${windowParam}${q.region ? `, region ${q.region}` : ''}`;
  const top = answer.entries.filter((e) => e.rank !== null).slice(0, 3);
  // The snippet's link comes from the configured public origin, never from Host / X-Forwarded-* (decision record 084).
  const embedUrl = `${publicOrigin()}/embed/leaderboard?${new URLSearchParams({ model: q.model, workload: q.workload, window: windowParam }).toString()}`;
  return (
    <>
      <p className="muted small">
        <Link href="/">All models compared</Link>
      </p>
      <div className="page-head">
        <div>
          <h1>Output speed per user: {model?.name ?? q.model}</h1>
          <p className="muted lead">
            Median TPS/user (output tokens per second of one stream, after the first token) over the last {windowParam}
            {workload
              ? ` for ${workload.category} prompts of ~${workload.inputTokensTarget.toLocaleString('en-US')} input tokens, up to ${workload.maxOutputTokens} output tokens`
              : ''}
            . Endpoints whose median intervals overlap are tied.
          </p>
        </div>
        <CalibrationBadge answer={calibration} />
      </div>
      <InvalidFilterNotice parsed={parsed} fallback="the default board" />
      <LeaderboardPickers
        models={models.map((m) => ({ slug: m.slug, name: m.name }))}
        workloads={workloads}
        model={q.model}
        workload={q.workload}
        window={windowParam}
        action="/"
        regions={regions}
        region={q.region ?? null}
      />
      <RegionCoverage answer={answer} />
      <Suspense fallback={<div className="skeleton" style={{ height: 320 }} />}>
        <LeaderboardLive
          initial={answer}
          renderedAt={Date.now()}
          query={query}
          caption={caption}
          pinned={Boolean(q.at)}
          initialSort={sort}
          initialDir={dir}
          claims={speedClaims.map((c) => ({
            id: c.id,
            provider: c.provider,
            providerSlug: c.providerSlug,
            system: c.system,
            endpointIds: c.endpointIds,
            subject: c.subject,
            value: c.value,
            bound: c.bound,
            claimDate: c.claimDate,
            measuredBy: c.measuredBy,
            sourcePublisher: c.sourcePublisher,
          }))}
        />
      </Suspense>
      <section className="card share" aria-labelledby="share-heading">
        <h2 id="share-heading">Use these numbers</h2>
        <ul className="link-list">
          <li>
            <a href={`/api/v1/leaderboard?${query}`}>JSON</a> · <a href={`/api/v1/leaderboard.csv?${query}`}>CSV</a> ·{' '}
            <Link href={`/s/${answer.snapshotId}`}>citable snapshot</Link>
          </li>
          <li>
            <Link href={`/models/${q.model}?workload=${q.workload}`}>History of every endpoint</Link> (daily medians, change points)
          </li>
          {top.length >= 2 ? (
            <li>
              <Link href={`/compare?e=${top.map((e) => e.endpoint.id).join(',')}&workload=${q.workload}`}>Compare the top {top.length}</Link>
            </li>
          ) : null}
          <li>
            <a href="/feed.xml">Atom feed of notable changes</a> (new #1, change points, new endpoints)
          </li>
        </ul>
        <label className="embed-code">
          Embed this ranking
          <input readOnly value={`<iframe src="${embedUrl}" width="640" height="420" title="Tokenpace leaderboard" style="border:0"></iframe>`} />
        </label>
      </section>
      <CalibrationPanel answer={calibration} />
      <ClaimsList items={speedClaims} heading="Published claims: output speed per user (not our measurements)" />
      {otherClaims.length > 0 ? <ClaimsList items={otherClaims} heading="Other published claims" /> : null}
    </>
  );
}
