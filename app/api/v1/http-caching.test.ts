/**
 * Answers computed once per change, snapshots written once, HTTP as readers expect (issue 13,
 * decisions 120–123). Real Postgres, the production route handlers over real local HTTP:
 * - identical answers share ONE snapshot row: many concurrent requests (and a second "instance",
 *   i.e. another database handle with its own caches and writer) for the same questions;
 * - a precomputed answer is served as stored bytes and is replaced, on every instance, when its
 *   rollups change (late data rolled up, the precompute job run again for the same minute);
 * - every public GET that answers 200 carries a strong ETag and answers 304 to If-None-Match
 *   (exact, weak form and lists), with Cache-Control s-maxage + stale-while-revalidate (or
 *   immutable) and Vary only on Accept where the route negotiates CSV.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openDb, type DbHandle } from '@/db/client';
import { measurements, precomputedAnswers } from '@/db/schema';
import type { TestDatabase } from '@/db/test-support/test-database';
import { fillPattern, importRoute, listApiRoutes } from '@/app/api/test-support/route-catalog';
import { runRollupJob } from '@/workers/tasks/rollup-measurements';
import { runPrecomputeAnswersJob } from '@/workers/tasks/precompute-answers';
import { useServedApiData, type ServedApiData } from './test-support/use-served-api-data';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

const NOW = Date.now();
let t: TestDatabase;
let endpointIds: number[];
let workloadIds: Record<string, number>;
let server: ServedApiData['server'];
let other: DbHandle;

useServedApiData({ now: NOW, days: 4, dump: true }, (s) => {
  ({ t, endpointIds, workloadIds, server } = s);
  other = openDb(t.url, 4);
});

afterAll(async () => {
  await other?.close();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.baseUrl}${path}`, { headers });
const snapshotRows = async (ids: string[]) =>
  (await t.sql<{ id: string; n: number }[]>`select id, count(*)::int as n from snapshots where id = any(${ids}) group by id`).reduce(
    (m, r) => m.set(r.id, r.n),
    new Map<string, number>(),
  );

describe('past boards are immutable once sealed (decision 211)', () => {
  it('at= older than SEALED_AFTER_MS: a year, immutable; just younger: fresh until it seals', async () => {
    const { SEALED_AFTER_MS } = await import('@/lib/stats/window-stats');
    const cc = async (agoMs: number) => {
      const at = new Date(Math.floor((Date.now() - agoMs) / 1000) * 1000).toISOString();
      const r = await get(`/api/v1/leaderboard?model=llama-4-maverick&workload=prose-1k&at=${at}`);
      expect(r.status).toBe(200);
      await r.arrayBuffer();
      return r.headers.get('cache-control') ?? '';
    };
    expect(await cc(3 * 3600_000)).toBe('public, max-age=31536000, s-maxage=31536000, immutable');
    expect(await cc(SEALED_AFTER_MS + 2_000)).toContain('immutable');
    const young = await cc(SEALED_AFTER_MS - 30_000);
    expect(young).not.toContain('immutable');
    const maxAge = Number(/max-age=(\d+)/.exec(young)![1]);
    expect(maxAge).toBeGreaterThanOrEqual(1);
    expect(maxAge).toBeLessThanOrEqual(31);
  });
});

describe('snapshots: identical answers share one row, written off the request path', () => {
  it('60 concurrent requests (two instances) for 4 distinct answers store exactly 4 rows, each citable at once', async () => {
    const { getLeaderboardAnswerWithBody, flushSnapshots } = await import('@/server/leaderboard');
    const { leaderboardQuerySchema } = await import('@/lib/api/schemas');
    const at = new Date(NOW - 3 * 3600_000 - 17_000).toISOString();
    const questions = [
      `model=llama-4-maverick&workload=prose-1k&window=24h&at=${at}`,
      `model=llama-4-maverick&workload=prose-1k&window=24h&basis=reported&at=${at}`,
      `model=llama-4-maverick&workload=code-1k&window=72h&at=${at}`,
      `model=llama-4-maverick&workload=code-1k&window=7d&at=${at}`,
    ];
    const overHttp = Array.from({ length: 40 }, (_, i) =>
      get(`/api/v1/leaderboard?${questions[i % 4]}`).then(async (r) => ({ status: r.status, body: await r.text(), etag: r.headers.get('etag') })),
    );
    // A second instance: its own caches and its own snapshot writer, same database.
    const otherInstance = Array.from({ length: 20 }, (_, i) =>
      getLeaderboardAnswerWithBody(other.db, leaderboardQuerySchema.parse(Object.fromEntries(new URLSearchParams(questions[i % 4])))).then((a) => ({
        status: 200,
        body: a.body,
        etag: a.etag,
      })),
    );
    const answers = await Promise.all([...overHttp, ...otherInstance]);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const ids = [...new Set(answers.map((a) => (JSON.parse(a.body) as { snapshotId: string }).snapshotId))];
    expect(ids).toHaveLength(4);
    // The same question gives the same bytes and ETag on both instances.
    for (let q = 0; q < 4; q++) expect(new Set(answers.filter((_, i) => (i < 40 ? i : i - 40) % 4 === q).map((a) => a.body)).size).toBe(1);
    // Citable at once: the snapshot route answers with the identical bytes even before the row lands.
    const first = answers[0]!;
    const cited = await get(`/api/v1/snapshots/${(JSON.parse(first.body) as { snapshotId: string }).snapshotId}`);
    expect(cited.status).toBe(200);
    expect(await cited.text()).toBe(first.body);
    expect(cited.headers.get('etag')).toBe(first.etag);
    await flushSnapshots(other.db);
    const { getDb } = await import('@/server/shared');
    await flushSnapshots(getDb());
    const rows = await snapshotRows(ids);
    expect([...rows.values()]).toEqual([1, 1, 1, 1]);
    // Asking again writes nothing new.
    const before = Number((await t.sql`select count(*)::int as n from snapshots`)[0]!.n);
    await Promise.all(questions.map((q) => get(`/api/v1/leaderboard?${q}`).then((r) => r.text())));
    await flushSnapshots(getDb());
    expect(Number((await t.sql`select count(*)::int as n from snapshots`)[0]!.n)).toBe(before);
  });
});

describe('precomputed answers', () => {
  it('are served as stored bytes, and replaced on every instance when their rollups change', async () => {
    const { syncAnswers, getLeaderboardAnswerWithBody } = await import('@/server/leaderboard');
    const { leaderboardQuerySchema } = await import('@/lib/api/schemas');
    const { getDb } = await import('@/server/shared');
    // The worker: rollups, then the precompute job for this minute.
    await runRollupJob(t.db, new Date());
    const run = await runPrecomputeAnswersJob(t.db, new Date());
    const { listPrecomputeTargets } = await import('@/db/queries/precomputed-answers');
    expect(run.answers).toBe((await listPrecomputeTargets(t.db)).length * 3 * 2); // (listed model × scheduled workload) × windows × bases
    expect(run.answers).toBeGreaterThanOrEqual(12);
    const qs = 'model=llama-4-maverick&workload=prose-1k&window=72h';
    const key = 'leaderboard|llama-4-maverick|prose-1k|72h|o200k|*'; // the default basis (decision 175)
    const stored = (
      await t.sql<
        { body: string; etag: string; snapshot_id: string }[]
      >`select s.body, p.etag, p.snapshot_id from precomputed_answers p join snapshots s on s.id = p.snapshot_id where p.key = ${key}`
    )[0]!;
    await syncAnswers(getDb());
    const r1 = await get(`/api/v1/leaderboard?${qs}`);
    expect(r1.status).toBe(200);
    const body1 = await r1.text();
    expect(body1).toBe(stored.body);
    expect(r1.headers.get('etag')).toBe(stored.etag);
    expect(stored.etag).toBe(`"${stored.snapshot_id}"`);
    // The precomputed answer is citable at once (written in the job's transaction).
    expect((await t.sql`select count(*)::int as n from snapshots where id = ${stored.snapshot_id}`)[0]!.n).toBe(1);
    // Another instance serves the same bytes.
    await syncAnswers(other.db);
    expect((await getLeaderboardAnswerWithBody(other.db, leaderboardQuerySchema.parse({ model: 'llama-4-maverick', workload: 'prose-1k' }))).body).toBe(
      stored.body,
    );
    expect((await get(`/api/v1/leaderboard?${qs}`, { 'if-none-match': stored.etag })).status).toBe(304);

    // Late data lands in the window (40 min ago) and is rolled up; the job runs again.
    const ep = endpointIds[0]!;
    const before = (JSON.parse(body1) as { entries: Array<{ endpoint: { id: number }; n: number }> }).entries.find((e) => e.endpoint.id === ep)!.n;
    await t.db.insert(measurements).values({
      jobKey: 'late:1',
      endpointId: ep,
      workloadId: workloadIds['prose-1k']!,
      measuredAt: new Date(Date.now() - 40 * 60_000),
      workerRegion: 'local',
      workerVersion: 'test',
      outcome: 'success',
      ttftMs: 150,
      ttfatMs: 160,
      e2eMs: 1200,
      outputTokensReported: 256,
      outputTokensO200k: 250,
      outputTokensPerSecond: 700,
      outputTokensPerSecondO200k: 690,
      contentChunks: 20,
      rankable: true,
      notRankableReasons: [],
    });
    await runRollupJob(t.db, new Date());
    await runPrecomputeAnswersJob(t.db, new Date());
    const replaced = (await t.sql<{ etag: string }[]>`select etag from precomputed_answers where key = ${key}`)[0]!;
    expect(replaced.etag).not.toBe(stored.etag);
    expect(Number((await t.sql`select count(*)::int as n from precomputed_answers where key = ${key}`)[0]!.n)).toBe(1);
    // Every instance drops its copy when the stored version moves (a data change: its NOTIFY, or syncAnswers).
    await syncAnswers(getDb());
    await syncAnswers(other.db);
    const r2 = await get(`/api/v1/leaderboard?${qs}`, { 'if-none-match': stored.etag });
    expect(r2.status).toBe(200);
    expect(r2.headers.get('etag')).toBe(replaced.etag);
    const after = (JSON.parse(await r2.text()) as { entries: Array<{ endpoint: { id: number }; n: number }> }).entries.find((e) => e.endpoint.id === ep)!.n;
    expect(after).toBe(before + 1);
    expect((await getLeaderboardAnswerWithBody(other.db, leaderboardQuerySchema.parse({ model: 'llama-4-maverick', workload: 'prose-1k' }))).etag).toBe(
      replaced.etag,
    );
    // Running the job again with the same data and minute rewrites nothing.
    const version = (await t.sql<{ v: string }[]>`select max(computed_at)::text as v from precomputed_answers`)[0]!.v;
    if (
      Math.floor(Date.now() / 60_000) ===
      Math.floor(new Date((await t.db.select({ a: precomputedAnswers.asOf }).from(precomputedAnswers).limit(1))[0]!.a).getTime() / 60_000)
    ) {
      await runPrecomputeAnswersJob(t.db, new Date());
      expect((await t.sql<{ v: string }[]>`select max(computed_at)::text as v from precomputed_answers`)[0]!.v).toBe(version);
    }
  });
});

describe('HTTP caching on every public GET', () => {
  it('strong ETag, 304 on If-None-Match (exact, W/, lists), s-maxage + stale-while-revalidate or immutable, Vary only on Accept', async () => {
    const lb = (await (await get('/api/v1/leaderboard')).json()) as { snapshotId: string };
    const measurementId = String(
      (await t.sql<{ id: string }[]>`select id::text as id from measurements where endpoint_id = ${endpointIds[0]!} order by id limit 1`)[0]!.id,
    );
    const dumpId = String((await t.sql<{ id: string }[]>`select id::text as id from data_dumps order by id limit 1`.catch(() => [{ id: '1' }]))[0]?.id ?? '1');
    const values: Record<string, string> = { id: String(endpointIds[0]!), slug: 'none' };
    const idFor = (pattern: string) =>
      pattern.startsWith('/api/v1/snapshots/')
        ? lb.snapshotId
        : pattern.startsWith('/api/v1/measurements/')
          ? measurementId
          : pattern.startsWith('/api/v1/dumps/')
            ? dumpId
            : values.id!;
    const checked: string[] = [];
    const skipped: string[] = [];
    for (const route of listApiRoutes().filter((r) => r.pattern.startsWith('/api/v1/') && !r.params.includes('rest'))) {
      const mod = await importRoute(route.file);
      if (typeof mod.GET !== 'function') continue;
      const path = fillPattern(route.pattern, { ...values, id: idFor(route.pattern) });
      // Answers "as of now" end at the current minute (e.g. history's `to`), so a minute that turns
      // between the requests below is a new answer with a new ETag, rightly a 200: such a route is
      // checked again from its first request (a minute cannot turn twice within one check).
      for (let attempt = 1; ; attempt++) {
        const minute = Math.floor(Date.now() / 60_000);
        const r1 = await get(path);
        if (r1.status !== 200) {
          await r1.arrayBuffer();
          skipped.push(`${path} ${r1.status}`);
          break;
        }
        const body1 = Buffer.from(await r1.arrayBuffer());
        const etag = r1.headers.get('etag');
        expect(etag, path).toMatch(/^"[^"]+"$/); // strong
        const cc = r1.headers.get('cache-control') ?? '';
        expect(cc, path).toMatch(/public/);
        if (!cc.includes('immutable')) {
          expect(cc, path).toMatch(/s-maxage=\d+/);
          expect(cc, path).toMatch(/stale-while-revalidate=\d+/);
        }
        const vary = r1.headers.get('vary');
        if (vary !== null) expect(vary, path).toBe('Accept');
        let minuteTurned = false;
        for (const inm of [etag!, `W/${etag}`, `"nope", ${etag}`, '*']) {
          const r304 = await get(path, { 'if-none-match': inm });
          if (r304.status === 200 && r304.headers.get('etag') !== etag && Math.floor(Date.now() / 60_000) !== minute && attempt === 1) {
            await r304.arrayBuffer();
            minuteTurned = true;
            break;
          }
          expect(r304.status, `${path} If-None-Match: ${inm}`).toBe(304);
          expect((await r304.arrayBuffer()).byteLength, path).toBe(0);
          expect(r304.headers.get('etag'), path).toBe(etag);
        }
        if (minuteTurned) continue;
        const miss = await get(path, { 'if-none-match': '"something-else"' });
        expect(miss.status, path).toBe(200);
        const same = Buffer.from(await miss.arrayBuffer()).equals(body1);
        if (!same && Math.floor(Date.now() / 60_000) !== minute && attempt === 1) continue;
        expect(same || path.includes('uptime') || path.includes('regions'), path).toBe(true);
        checked.push(route.pattern);
        break;
      }
    }
    console.info(`[http-caching] checked ${checked.length} GET routes; not 200 here: ${skipped.join('; ')}`);
    // The reads readers use most are among the checked ones (the rest need data this seed lacks or auth).
    for (const p of [
      '/api/v1/leaderboard',
      '/api/v1/leaderboard.csv',
      '/api/v1/snapshots/[id]',
      '/api/v1/models',
      '/api/v1/endpoints',
      '/api/v1/endpoints/[id]',
      '/api/v1/endpoints/[id]/history',
      '/api/v1/history',
      '/api/v1/measurements/[id]',
      '/api/v1/ping',
    ]) {
      expect(checked, `${p} (skipped: ${skipped.join('; ')})`).toContain(p);
    }
    // The ping and snapshot routes never negotiate: no Vary; the leaderboard does: Vary: Accept.
    expect((await get('/api/v1/ping')).headers.get('vary')).toBeNull();
    expect((await get(`/api/v1/snapshots/${lb.snapshotId}`)).headers.get('vary')).toBeNull();
    expect((await get('/api/v1/leaderboard')).headers.get('vary')).toBe('Accept');
  });
});
