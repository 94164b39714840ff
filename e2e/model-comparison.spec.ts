import { expect, test, type Page } from '@playwright/test';
import { inArray, sql } from 'drizzle-orm';
import { notifyDataChanged } from '@/server/cache-invalidation';
import { openDb } from '@/db/client';
import { endpoints } from '@/db/schema';
import { SEED_ENDPOINTS } from '@/lib/catalog/seed-catalog';
import { startReferenceServer, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { expectNoHorizontalOverflow, expectNoSeriousA11yViolations, screenshot } from './support/page-checks';
import { probeNow } from './support/probe-now';
import { e2eDatabaseUrl } from './support/tokenpace-cli';

/**
 * The home page compares models (issue 27): reference servers stand in for five catalog endpoints
 * of three models (their base URLs pointed at them), the running worker probes them every minute,
 * and the home page shows each model's fastest endpoint with the same figures as the model's own
 * board; the filters (weights, provider, price ceiling, context window) and sorting work in a real
 * browser at 1280 and 390 px. Restores the endpoints and removes their measurements afterwards.
 */

/** Stand-ins: catalog endpoint → reference server rate (tokens/s) and TTFT (ms). Distinct, so order is known. */
const STAND_INS = [
  { slug: 'cerebras-gpt-oss-120b', model: 'gpt-oss-120b', tps: 1600, ttftMs: 40 },
  { slug: 'groq-gpt-oss-120b', model: 'gpt-oss-120b', tps: 450, ttftMs: 90 },
  { slug: 'sambanova-llama-3-3-70b', model: 'llama-3-3-70b', tps: 700, ttftMs: 160 },
  { slug: 'groq-llama-3-3-70b', model: 'llama-3-3-70b', tps: 250, ttftMs: 60 },
  { slug: 'openai-gpt-5-4-mini', model: 'gpt-5-4-mini', tps: 300, ttftMs: 220 },
] as const;
/** The stand-in whose declared context window the test removes (the catalog declares 131,072). */
const UNDECLARED_CONTEXT = 'sambanova-llama-3-3-70b';
const FASTEST = { 'gpt-oss-120b': 'cerebras-gpt-oss-120b', 'llama-3-3-70b': 'sambanova-llama-3-3-70b', 'gpt-5-4-mini': 'openai-gpt-5-4-mini' } as const;

interface Compared {
  slug: string;
  snapshotId: string;
  best: { slug: string; outputTokensPerSecond: { p50: number }; blendedUsdPerMTokens: number | null } | null;
}

const servers: ReferenceServer[] = [];
/** The stand-ins' endpoint ids. */
async function standInEndpointIds(db: ReturnType<typeof openDb>['db']): Promise<number[]> {
  return (
    await db
      .select({ id: endpoints.id })
      .from(endpoints)
      .where(
        inArray(
          endpoints.slug,
          STAND_INS.map((s) => s.slug),
        ),
      )
  ).map((e) => e.id);
}
/** the stand-ins' endpoint ids (set up in beforeAll) */
let standInIds: number[] = [];

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  // On a busy machine many probes are kept but flagged timing_uncertain (decision 181), so reaching
  // 3 rankable probes per stand-in can take well over the minimum 3 minutes (seen: 9 min, 11 of 14 flagged).
  test.setTimeout(1_200_000);
  const { db, close } = openDb(e2eDatabaseUrl(), 2);
  try {
    for (const s of STAND_INS) {
      const server = await startReferenceServer({ port: 0, tps: s.tps, ttftMs: s.ttftMs, outputTokens: 256 });
      servers.push(server);
      await db
        .update(endpoints)
        // SambaNova's Llama stands in for an endpoint that declares no context window (the filter test's edge).
        .set({ baseUrl: server.url, allowPrivate: true, status: 'active', ...(s.slug === UNDECLARED_CONTEXT ? { contextWindowTokens: null } : {}) })
        .where(inArray(endpoints.slug, [s.slug]));
    }
    await notifyDataChanged(db, 'e2e-model-comparison');
    standInIds = await standInEndpointIds(db);
  } finally {
    await close();
  }
  // An endpoint is ranked from its 3rd rankable probe: three probes of each stand-in now, not three
  // cron minutes (the crons go on probing them every minute too). Wait until the comparison names
  // each model's fastest stand-in.
  await probeNow(standInIds, 'prose-1k', 3);
  await expect
    .poll(
      async () => {
        const res = await request.get('/api/v1/model-comparison?workload=prose-1k&window=72h');
        if (!res.ok()) return `HTTP ${res.status()}`;
        const items = ((await res.json()) as { items: Compared[] }).items;
        // Every stand-in ranked on its own board too: the provider filter below picks the slower ones.
        const unranked: string[] = [];
        for (const model of new Set(STAND_INS.map((s) => s.model))) {
          const board = (await (await request.get(`/api/v1/leaderboard?model=${model}&workload=prose-1k&window=72h`)).json()) as {
            entries: Array<{ endpoint: { slug: string }; rank: number | null }>;
          };
          for (const s of STAND_INS.filter((x) => x.model === model)) if (!board.entries.find((e) => e.endpoint.slug === s.slug)?.rank) unranked.push(s.slug);
        }
        return `${Object.keys(FASTEST)
          .map((m) => `${m}=${items.find((i) => i.slug === m)?.best?.slug ?? 'none'}`)
          .join(' ')} unranked=${unranked.join(',')}`;
      },
      { timeout: 1_140_000, intervals: [10_000] },
    )
    .toBe(
      `${Object.entries(FASTEST)
        .map(([m, e]) => `${m}=${e}`)
        .join(' ')} unranked=`,
    );
});

test.afterAll(async () => {
  const { db, close } = openDb(e2eDatabaseUrl(), 2);
  try {
    const ids = await standInEndpointIds(db);
    for (const s of STAND_INS) {
      const seeded = SEED_ENDPOINTS.find((e) => e.slug === s.slug)!;
      await db
        .update(endpoints)
        .set({ baseUrl: seeded.baseUrl, allowPrivate: false, status: 'inactive', contextWindowTokens: seeded.contextWindowTokens ?? null })
        .where(inArray(endpoints.slug, [s.slug]));
    }
    // The stand-ins' measurements are not Cerebras's, Groq's, ...: remove them and everything derived from them.
    const tables = (await db.execute<{ table_name: string }>(
      sql`select table_name from information_schema.columns where column_name = 'endpoint_id' and table_schema = current_schema() and (table_name like '%rollup%' or table_name = 'measurements')`,
    )) as unknown as Array<{ table_name: string }>;
    for (const t of tables.filter((x) => x.table_name !== 'measurements'))
      await db.execute(sql`delete from ${sql.identifier(t.table_name)} where endpoint_id in ${ids}`);
    await db.execute(sql`delete from measurements where endpoint_id in ${ids}`);
    await notifyDataChanged(db, 'e2e-model-comparison-cleanup');
  } finally {
    await close();
  }
  await Promise.all(servers.map((s) => s.close()));
});

/** What a comparison row shows: endpoint, snapshot and the metric cells. */
async function comparisonRow(page: Page, model: string) {
  const row = page.locator(`table[data-table="model-comparison"] tbody tr[data-model="${model}"]`);
  await expect(row).toBeVisible();
  return row.evaluate((tr) => ({
    endpoint: tr.getAttribute('data-endpoint')!,
    snapshot: tr.getAttribute('data-snapshot')!,
    cells: Object.fromEntries([...tr.querySelectorAll('[data-metric]')].map((td) => [td.getAttribute('data-metric')!, (td as HTMLElement).innerText.trim()])),
  }));
}

test('home page shows each model’s fastest endpoint with its board’s figures (same snapshot, same text)', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const [model, fastest] of Object.entries(FASTEST)) {
    // Board and home are served from the answer precomputed each minute: read both until they come from the same one.
    let matched = false;
    for (let attempt = 0; attempt < 6 && !matched; attempt++) {
      await page.goto(`/?model=${model}&workload=prose-1k&window=72h`);
      const board = page.getByTestId('leaderboard');
      const boardSnapshot = await board.getAttribute('data-snapshot');
      const boardRow = await board
        .locator(`table[data-table="leaderboard"] tbody tr[data-endpoint="${fastest}"]`)
        .evaluate((tr) =>
          Object.fromEntries([...tr.querySelectorAll('[data-metric]')].map((td) => [td.getAttribute('data-metric')!, (td as HTMLElement).innerText.trim()])),
        );
      expect(boardRow.rank, `${fastest} is #1 on its board`).toMatch(/^1\b/);
      await page.goto('/');
      const home = await comparisonRow(page, model);
      expect(home.endpoint).toBe(fastest);
      if (home.snapshot !== boardSnapshot) continue;
      matched = true;
      // The board's TPS/user cell also shows, under the median, the interval that decides ties
      // ("median low–high", issue 23 item 9): the figure is its first line.
      const [boardTps, boardTieInterval] = (boardRow['tps-p50'] ?? '').split('\n').map((x) => x.trim());
      expect(home.cells['tps-p50'], `${model} tps-p50`).toBe(boardTps);
      for (const metric of ['ttft-p50', 'blended-price'] as const) expect(home.cells[metric], `${model} ${metric}`).toBe(boardRow[metric]);
      // the interval is the board answer's (snapshot JSON)
      const snap = (await (await page.request.get(`/api/v1/snapshots/${home.snapshot}`)).json()) as {
        entries: Array<{ endpoint: { slug: string }; outputTokensPerSecondMedianCi: { low: number; high: number } | null }>;
      };
      const ci = snap.entries.find((e) => e.endpoint.slug === fastest)!.outputTokensPerSecondMedianCi!;
      const f1 = (v: number) => v.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
      expect(home.cells['tps-ci']).toBe(`${f1(ci.low)}–${f1(ci.high)}`);
      // one interval: the board's tie interval is the home page's
      expect(boardTieInterval, `${model} tie interval`).toBe(`median ${home.cells['tps-ci']}`);
    }
    expect(matched, `${model}: home and board served the same answer`).toBe(true);
  }
  // the chart draws the same medians as the table
  const chartRow = page.locator('[data-chart="model-comparison"] [data-chart-row="gpt-oss-120b"]');
  await expect(chartRow).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'home comparison');
  await screenshot(page, testInfo, 'home-comparison-1280');
  // one click to a model's board
  await page.locator('tr[data-model="llama-3-3-70b"]').getByRole('link', { name: 'Llama 3.3 70B Instruct', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Llama 3.3 70B Instruct');
});

for (const width of [1280, 390]) {
  test(`filters and sorting work at ${width} px`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    const rows = page.locator('table[data-table="model-comparison"] tbody tr');
    const endpointOf = (model: string) => page.locator(`tr[data-model="${model}"]`).getAttribute('data-endpoint');
    await expect(page.locator('tr[data-model="gpt-oss-120b"]')).toHaveAttribute('data-endpoint', 'cerebras-gpt-oss-120b');
    // measured first, fastest first
    const measuredOrder = async () =>
      await rows.evaluateAll((trs) => trs.filter((tr) => tr.getAttribute('data-endpoint')).map((tr) => tr.getAttribute('data-model')));
    expect(await measuredOrder()).toEqual(['gpt-oss-120b', 'llama-3-3-70b', 'gpt-5-4-mini']);

    // weights: proprietary only
    await page.getByLabel('Weights').selectOption('proprietary');
    await expect(page.locator('tr[data-model="gpt-oss-120b"]')).toHaveCount(0);
    await expect(page.locator('tr[data-model="gpt-5-4-mini"]')).toHaveAttribute('data-endpoint', 'openai-gpt-5-4-mini');
    expect(page.url()).toContain('weights=proprietary');
    await page.getByLabel('Weights').selectOption('open');
    await expect(page.locator('tr[data-model="gpt-5-4-mini"]')).toHaveCount(0);

    // provider: Groq's fastest stands for each model
    await page.getByLabel('Provider').selectOption('groq');
    await expect(page.locator('tr[data-model="gpt-oss-120b"]')).toHaveAttribute('data-endpoint', 'groq-gpt-oss-120b');
    await expect(page.locator('tr[data-model="llama-3-3-70b"]')).toHaveAttribute('data-endpoint', 'groq-llama-3-3-70b');
    await page.getByLabel('Provider').selectOption('');

    // price ceiling at the edge: Cerebras' blended (3 × 0.35 + 0.75) ÷ 4 = 0.45 passes at 0.45, not at 0.449
    const price = page.getByLabel('Max price (USD per M tokens, blended)');
    await price.fill('0.449');
    await expect(page.locator('tr[data-model="gpt-oss-120b"]')).toHaveAttribute('data-endpoint', 'groq-gpt-oss-120b');
    await price.fill('0.45');
    await expect(page.locator('tr[data-model="gpt-oss-120b"]')).toHaveAttribute('data-endpoint', 'cerebras-gpt-oss-120b');
    await price.fill('');

    // context window: 131,072 declared by Cerebras passes "128k"; SambaNova's Llama declares none here (UNDECLARED_CONTEXT), so Groq's stands in
    await page.getByLabel('Context window at least').selectOption(String(131_072));
    await expect(page.locator('tr[data-model="gpt-oss-120b"]')).toHaveAttribute('data-endpoint', 'cerebras-gpt-oss-120b');
    await expect(page.locator('tr[data-model="llama-3-3-70b"]')).toHaveAttribute('data-endpoint', 'groq-llama-3-3-70b');
    await page.getByLabel('Context window at least').selectOption(String(1_000_000));
    await expect(page.locator('tr[data-model="gpt-oss-120b"]')).toHaveCount(0);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    expect(await endpointOf('llama-3-3-70b')).toBe('sambanova-llama-3-3-70b');

    // sort by TTFT (best = lowest first): cerebras 40 ms, sambanova 160 ms, openai 220 ms
    await page.getByRole('button', { name: /TTFT P50/ }).click();
    await expect.poll(measuredOrder).toEqual(['gpt-oss-120b', 'llama-3-3-70b', 'gpt-5-4-mini']);
    await page.getByRole('button', { name: /TTFT P50/ }).click();
    await expect.poll(measuredOrder).toEqual(['gpt-5-4-mini', 'llama-3-3-70b', 'gpt-oss-120b']);
    expect(page.url()).toContain('sort=ttft');
    // the URL is the view: reloading keeps the sort
    await page.reload();
    await expect.poll(measuredOrder).toEqual(['gpt-5-4-mini', 'llama-3-3-70b', 'gpt-oss-120b']);
    await expectNoHorizontalOverflow(page);
    await screenshot(page, testInfo, `home-filters-${width}`);
  });
}
