import type { Metadata } from 'next';
import { connection } from 'next/server';
import { Suspense } from 'react';
import { listClaims } from '@/db/queries/claims';
import { listModels, listWorkloads } from '@/db/queries/catalog';
import { getDb } from '@/db/shared';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { getLeaderboardAnswer } from './_server/leaderboard';
import { CalibrationPanel } from './_components/calibration-panel';
import { ClaimsList } from './_components/claims-list';
import { LeaderboardLive } from './_components/leaderboard-live';

export const metadata: Metadata = { title: 'Leaderboard' };

type Search = Promise<Record<string, string | string[] | undefined>>;

/** Home: leaderboard for a model and workload over a window, calibration panel, claims. */
export default async function HomePage({ searchParams }: { searchParams: Search }) {
  await connection();
  const sp = await searchParams;
  const pick = (k: string) => (typeof sp[k] === 'string' ? (sp[k] as string) : undefined);
  const parsed = leaderboardQuerySchema.safeParse({ model: pick('model'), workload: pick('workload'), window: pick('window') });
  const q = parsed.success ? parsed.data : leaderboardQuerySchema.parse({});
  const db = getDb();
  const [models, workloads, answer, calibration, claims] = await Promise.all([
    listModels(db),
    listWorkloads(db),
    getLeaderboardAnswer(db, q),
    getLeaderboardAnswer(db, { ...q, model: 'tokenpace-reference' }),
    listClaims(db, { modelSlug: q.model }),
  ]);
  const model = models.find((m) => m.slug === q.model);
  const speedClaims = claims.filter((c) => c.metric === 'output_speed_tps_per_user');
  const otherClaims = claims.filter((c) => c.metric !== 'output_speed_tps_per_user');
  const query = new URLSearchParams({ model: q.model, workload: q.workload, window: `${q.window}h` }).toString();
  return (
    <>
      <h1>Output speed per user: {model?.name ?? q.model}</h1>
      <p className="muted">Median TPS/user (output tokens per second of one stream, after the first token) over the last {q.window} h, with P25–P75 whiskers. Endpoints whose median intervals overlap are shown as tied.</p>
      {!parsed.success ? <p className="badge-bad" role="alert">Ignored an invalid filter: {parsed.error.issues[0]?.path.join('.')}: {parsed.error.issues[0]?.message}</p> : null}
      <form className="pickers" method="get" action="/">
        <label>Model
          <select name="model" defaultValue={q.model}>
            {models.map((m) => <option key={m.slug} value={m.slug}>{m.name}</option>)}
          </select>
        </label>
        <label>Workload
          <select name="workload" defaultValue={q.workload}>
            {workloads.map((w) => <option key={w.slug} value={w.slug}>{w.name}</option>)}
          </select>
        </label>
        <label>Window
          <select name="window" defaultValue={`${q.window}h`}>
            {['24h', '72h', '168h', '720h'].map((w) => <option key={w} value={w}>{w}</option>)}
          </select>
        </label>
        <button type="submit">Show</button>
      </form>
      <Suspense fallback={<div className="skeleton" style={{ height: 200 }} />}>
        <LeaderboardLive initial={answer} query={query} caption={`Leaderboard for ${model?.name ?? q.model}, workload ${q.workload}`} />
      </Suspense>
      <CalibrationPanel answer={calibration} />
      <ClaimsList items={speedClaims} heading="Published claims: output speed per user (not our measurements)" />
      {otherClaims.length > 0 ? <ClaimsList items={otherClaims} heading="Other published claims" /> : null}
    </>
  );
}
