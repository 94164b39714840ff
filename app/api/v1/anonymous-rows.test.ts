/**
 * Issue 19 finding 5 (decision 163): anonymous questions do not write a row each. Over real HTTP
 * (the production route handlers behind a local server) and the real pages, embeds and OG images,
 * against real Postgres:
 * - N distinct `at=` boards → at most the snapshot budget's rows, the rest 503 + Retry-After,
 *   nothing computed for them; a repeated question costs nothing more; live answers of the catalog
 *   grid (the home page's comparison of every listed model) cost nothing, other live windows do;
 * - an unknown model, workload or region → 404 naming the field (JSON, CSV, pages, embeds, OG
 *   images) and 0 rows.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { TestDatabase } from '@/db/test-support/test-database';
import { getDb } from '@/server/shared';
import { flushSnapshots } from '@/server/leaderboard';
import { configureSnapshotBudget, DEFAULT_SNAPSHOT_BUDGET } from '@/server/snapshot-budget';
import { useServedApiData, type ServedApiData } from './test-support/use-served-api-data';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

const NOW = Date.now();
const BUDGET = 5;
let t: TestDatabase;
let server: ServedApiData['server'];

useServedApiData({ now: NOW, days: 2, dump: false }, (s) => {
  ({ t, server } = s);
});

afterAll(() => {
  configureSnapshotBudget(DEFAULT_SNAPSHOT_BUDGET);
});

const get = (path: string) => fetch(`${server.baseUrl}${path}`);
const rows = async () => {
  await flushSnapshots(getDb());
  return Number((await t.sql`select count(*)::int as n from snapshots`)[0]!.n);
};
/** Renders a server component's top: while it returns an element of an async function component (the home page's board), calls it. */
async function renderTop(p: Promise<unknown>): Promise<unknown> {
  let v = await p;
  for (;;) {
    const el = v as { type?: unknown; props?: unknown } | null;
    if (!el || typeof el !== 'object' || typeof el.type !== 'function') return v;
    v = await (el.type as (props: unknown) => unknown)(el.props);
  }
}
/** The 404 a page or embed throws (next/navigation notFound()). */
const notFoundDigest = async (p: Promise<unknown>) =>
  (
    (await renderTop(p).then(
      () => null,
      (e: unknown) => e,
    )) as { digest?: string } | null
  )?.digest;

describe('anonymous questions write a bounded number of rows', () => {
  it(`20 distinct at= boards → at most ${BUDGET} new snapshot rows, the rest 503 with Retry-After; repeats are free`, async () => {
    configureSnapshotBudget({ points: BUDGET, durationSeconds: 3600 });
    const before = await rows();
    const ats = Array.from({ length: 20 }, (_, i) => new Date(NOW - 3 * 3600_000 - i * 61_000 - i).toISOString());
    const statuses: number[] = [];
    for (const at of ats) {
      const r = await get(`/api/v1/leaderboard?model=llama-4-maverick&workload=prose-1k&at=${at}`);
      statuses.push(r.status);
      if (r.status === 503) {
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(((await r.json()) as { error: { code: string } }).error.code).toBe('unavailable');
      } else await r.arrayBuffer();
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(BUDGET);
    expect(statuses.filter((s) => s === 503)).toHaveLength(20 - BUDGET);
    const added = (await rows()) - before;
    expect(added).toBe(BUDGET);
    // The same (already answered) question again, 10 times: served from the answer cache, no point, no row.
    for (let i = 0; i < 10; i++) expect((await get(`/api/v1/leaderboard?model=llama-4-maverick&workload=prose-1k&at=${ats[0]}`)).status).toBe(200);
    expect((await rows()) - before).toBe(BUDGET);
    configureSnapshotBudget(DEFAULT_SNAPSHOT_BUDGET);
  });

  it('live answers of the catalog grid (listed model, precomputed window, all regions) cost nothing; other live windows do', async () => {
    configureSnapshotBudget({ points: 1, durationSeconds: 3600 });
    // every listed model's live 72 h board (the home page's comparison) and 24 h / 7 d boards
    for (const window of ['72h', '24h', '7d']) expect((await get(`/api/v1/model-comparison?workload=code-1k&window=${window}`)).status, window).toBe(200);
    // a live board of another window takes the one point; the next distinct one is refused
    expect((await get('/api/v1/leaderboard?workload=code-1k&window=5h')).status).toBe(200);
    const refused = await get('/api/v1/leaderboard?workload=code-1k&window=6h');
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    configureSnapshotBudget(DEFAULT_SNAPSHOT_BUDGET);
  });

  it.each([
    ['/api/v1/leaderboard?model=no-such-model', 'model'],
    ['/api/v1/leaderboard.csv?model=no-such-model', 'model'],
    ['/api/v1/leaderboard?model=groq-is-fastest&at=2026-01-01T00:00:00Z', 'model'],
    ['/api/v1/leaderboard?workload=no-such-workload', 'workload'],
    ['/api/v1/leaderboard.csv?workload=no-such-workload&window=5h', 'workload'],
    ['/api/v1/leaderboard?region=nowhere&window=3h', 'region'],
    ['/api/v1/model-comparison?workload=no-such-workload', 'workload'],
  ])('%s → 404 naming %s, 0 rows', async (path, field) => {
    const before = await rows();
    const r = await get(path);
    expect(r.status).toBe(404);
    expect(((await r.json()) as { error: { field: string } }).error.field).toBe(field);
    expect(await rows()).toBe(before);
  });

  it('pages and embeds of unknown models, workloads or regions: 404, 0 rows', async () => {
    const before = await rows();
    const { default: Home } = await import('@/app/page');
    const { default: EmbedLeaderboard } = await import('@/app/embed/leaderboard/page');
    const { default: EmbedHistory } = await import('@/app/embed/history/page');
    const { default: ModelPage } = await import('@/app/models/[slug]/page');
    const sp = (o: Record<string, string>) => Promise.resolve(o);
    const NOT_FOUND = 'NEXT_HTTP_ERROR_FALLBACK;404';
    expect(await notFoundDigest(Home({ searchParams: sp({ model: 'groq-is-fastest' }) }))).toBe(NOT_FOUND);
    expect(await notFoundDigest(Home({ searchParams: sp({ model: 'llama-4-maverick', workload: 'nope', at: new Date(NOW - 7200_000).toISOString() }) }))).toBe(
      NOT_FOUND,
    );
    expect(await notFoundDigest(Home({ searchParams: sp({ model: 'llama-4-maverick', region: 'nowhere' }) }))).toBe(NOT_FOUND);
    expect(await notFoundDigest(Home({ searchParams: sp({ workload: 'nope' }) }))).toBe(NOT_FOUND);
    expect(await notFoundDigest(EmbedLeaderboard({ searchParams: sp({ model: 'groq-is-fastest' }) }))).toBe(NOT_FOUND);
    expect(await notFoundDigest(EmbedHistory({ searchParams: sp({ model: 'groq-is-fastest' }) }))).toBe(NOT_FOUND);
    expect(await notFoundDigest(ModelPage({ params: Promise.resolve({ slug: 'llama-4-maverick' }), searchParams: sp({ workload: 'nope' }) }))).toBe(NOT_FOUND);
    expect(await notFoundDigest(ModelPage({ params: Promise.resolve({ slug: 'llama-4-maverick' }), searchParams: sp({ region: 'nowhere' }) }))).toBe(NOT_FOUND);
    expect(await rows()).toBe(before);
  });

  it('OG images of unknown models and endpoints: 404, URL text never drawn, 0 rows', async () => {
    const before = await rows();
    const { default: ModelImage } = await import('@/app/models/[slug]/opengraph-image');
    const { default: EndpointImage } = await import('@/app/endpoints/[id]/opengraph-image');
    const m = await ModelImage({ params: Promise.resolve({ slug: 'groq-is-fastest' }) });
    expect(m.status).toBe(404);
    const e = await EndpointImage({ params: Promise.resolve({ id: '999999' }) });
    expect(e.status).toBe(404);
    expect(await e.text()).toBe('unknown endpoint');
    expect(await rows()).toBe(before);
  });
});
