import { expect, test, type Page } from '@playwright/test';
import postgres from 'postgres';
import { notifyDataChanged } from '@/server/cache-invalidation';
import { openDb } from '@/db/client';
import { screenshot } from './support/page-checks';
import { seedSyntheticAnnounced } from './support/seed-synthetic-announced';
import { removeSyntheticData, type SyntheticSeedResult } from './support/synthetic-data';
import { e2eDatabaseUrl } from './support/tokenpace-cli';

/**
 * Issue #23 items 4 and 8 (docs/decisions/202): at 1280 px the leaderboard's key figures (rank,
 * TPS/user with its interval, TTFT, n, success, fidelity) are in view without sideways scrolling;
 * at 390 px (a phone) the board is a list of cards and no page (home, endpoint, Pareto, sweeps) is
 * wider than the viewport, in light and dark. Data: the synthetic demo endpoints (removed
 * afterwards) and one completed sweep of one of them, written here.
 */
const MODEL = 'llama-4-maverick';
let seed: SyntheticSeedResult;
let sweepEndpointId = 0;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(540_000);
  seed = await seedSyntheticAnnounced('e2e-layout-seed');
  sweepEndpointId = Object.values(seed.endpointIds)[0]!;
  const sql = postgres(e2eDatabaseUrl(), { max: 1, onnotice: () => {} });
  try {
    const [sweep] = await sql<{ id: number }[]>`
      insert into sweeps (endpoint_id, status, started_at, finished_at, concurrency_levels, duration_ms, warm_up_ms, max_output_tokens, objective_ttft_ms, objective_tpot_ms, min_success_rate, current_concurrency, streams_done)
      values (${sweepEndpointId}, 'completed', now() - interval '10 minutes', now() - interval '5 minutes', ${[1, 4, 16, 64]}, 10000, 5000, 256, 2000, 50, 0.95, null, 200)
      returning id`;
    const levels = [1, 4, 16, 64];
    for (const [i, c] of levels.entries()) {
      const perUser = 900 / Math.sqrt(c);
      const pct = (v: number) => ({ p5: v * 0.9, p25: v * 0.95, p50: v, p75: v * 1.03, p95: v * 1.08 });
      await sql`
        insert into sweep_levels (sweep_id, level_index, concurrency, requests, successes, error_kinds, output_tokens_per_second_per_user, ttft_ms, tpot_ms, aggregate_output_tokens_per_second, completed_requests_per_second, goodput_requests_per_second, window_started_at, window_duration_ms, streams, event_loop_delay_p99_ms, valid)
        values (${sweep!.id}, ${i}, ${c}, ${c * 4}, ${c * 4}, ${sql.json({})}, ${sql.json(pct(perUser))}, ${sql.json(pct(200 + c * 5))}, ${sql.json(pct(1000 / perUser))}, ${perUser * c}, ${c * 0.4}, ${c * 0.38}, now() - interval '8 minutes', 10000, ${sql.json({ warmup: c, measured: c * 4, tail: c })}, 3.5, true)`;
    }
  } finally {
    await sql.end();
  }
  // The board answers with the synthetic endpoints ranked (rollups of past hours: caches expire).
  await expect
    .poll(
      async () => {
        const a = (await (await request.get(`/api/v1/leaderboard?model=${MODEL}&workload=prose-1k&window=72h`)).json()) as {
          entries: Array<{ rank: number | null; endpoint: { slug: string } }>;
        };
        return a.entries.filter((e) => e.rank !== null && e.endpoint.slug in seed.endpointIds).length;
      },
      { timeout: 420_000, intervals: [5_000] },
    )
    .toBeGreaterThanOrEqual(3);
});

test.afterAll(async () => {
  const { db, close } = openDb(e2eDatabaseUrl(), 2);
  try {
    const sql = postgres(e2eDatabaseUrl(), { max: 1, onnotice: () => {} });
    await sql`delete from sweep_levels where sweep_id in (select id from sweeps where endpoint_id = ${sweepEndpointId})`;
    await sql`delete from sweeps where endpoint_id = ${sweepEndpointId}`;
    await sql.end();
    await removeSyntheticData(db);
    await notifyDataChanged(db, 'e2e-layout-cleanup');
  } finally {
    await close();
  }
});

const boardUrl = () => `/?model=${MODEL}&workload=prose-1k&window=72h`;

/** The page's width beyond the viewport (0 when it does not scroll sideways), and the widest culprits. */
async function overflow(page: Page): Promise<{ excess: number; culprits: string[] }> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const culprits: string[] = [];
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > vw + 1 && !el.closest('.table-wrap:not(.board-wrap)')) {
        culprits.push(
          `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''} right=${Math.round(r.right)}`,
        );
      }
    }
    return { excess: document.documentElement.scrollWidth - vw, culprits: culprits.slice(0, 8) };
  });
}

test('1280 px: the key figures of the board are in view without scrolling sideways', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(boardUrl());
  const table = page.locator('table[data-table="leaderboard"]');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  const wrap = page.locator('.board-wrap');
  const wrapBox = (await wrap.boundingBox())!;
  const viewport = page.viewportSize()!;
  const row = table.locator('tbody tr').first();
  for (const metric of ['rank', 'tps-p50', 'tps-p25-p75', 'ttft-p50', 'n', 'success', 'fidelity']) {
    const box = (await row.locator(`td[data-metric="${metric}"]`).boundingBox())!;
    expect(box, metric).not.toBeNull();
    expect(box.x + box.width, `${metric} right edge within the board's visible width`).toBeLessThanOrEqual(
      Math.min(wrapBox.x + wrapBox.width, viewport.width) + 0.5,
    );
    expect(box.x, metric).toBeGreaterThanOrEqual(0);
  }
  // …and nothing was scrolled to show them.
  expect(await wrap.evaluate((el) => el.scrollLeft)).toBe(0);
  // The header row names them in that order, first.
  const heads = (await table.locator('thead th').allInnerTexts()).map((t) => t.replace(/[▲▼↕]/g, '').replace(/\s+/g, ' ').trim());
  expect(heads.slice(0, 8)).toEqual(['Rank', 'Provider / endpoint', 'TPS/user P50', 'P25–P75', 'TTFT P50 (ms)', 'n', 'Success', 'Fidelity']);
  await expect(page.locator('.table-hint')).toBeVisible();
  expect((await overflow(page)).excess).toBe(0);
  await screenshot(page, testInfo, 'board-1280');
});

for (const theme of ['light', 'dark'] as const) {
  test(`390 px (${theme}): the board is cards and no page is wider than the viewport`, async ({ page }, testInfo) => {
    test.setTimeout(240_000);
    await page.emulateMedia({ colorScheme: theme });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(boardUrl());
    const firstRow = page.locator('table[data-table="leaderboard"] tbody tr').first();
    await expect(firstRow).toBeVisible();
    // A card: its cells are stacked blocks inside the viewport, each labelled.
    const card = (await firstRow.boundingBox())!;
    expect(card.x).toBeGreaterThanOrEqual(0);
    expect(card.x + card.width).toBeLessThanOrEqual(390);
    const label = await firstRow.locator('td[data-metric="tps-p50"]').evaluate((el) => getComputedStyle(el, '::before').content);
    expect(label).toContain('TPS/user');
    const pages = [
      ['home', boardUrl()],
      ['endpoint', `/endpoints/${sweepEndpointId}`],
      ['pareto', `/models/${MODEL}/pareto`],
      ['sweeps', `/endpoints/${sweepEndpointId}/sweeps`],
      ['models', '/models'],
      ['compare', `/compare?e=${Object.values(seed.endpointIds).slice(0, 2).join(',')}`],
    ] as const;
    const wide: string[] = [];
    for (const [name, url] of pages) {
      await page.goto(url);
      await page.waitForLoadState('networkidle');
      const o = await overflow(page);
      if (o.excess > 0) wide.push(`${name}: ${o.excess} px wider (${o.culprits.join(', ')})`);
      await screenshot(page, testInfo, `${name}-390-${theme}`);
    }
    expect(wide).toEqual([]);
  });
}

test('interval charts: no two visible axis labels overlap, at 390 and 1280 px (compare, board)', async ({ page }) => {
  const overlaps: string[] = [];
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const url of [`/compare?e=${Object.values(seed.endpointIds).slice(0, 2).join(',')}`, boardUrl()]) {
      await page.goto(url);
      await expect(page.locator('.ichart-ticks').first()).toBeVisible();
      overlaps.push(
        ...(
          await page.evaluate(() => {
            const out: string[] = [];
            for (const axis of Array.from(document.querySelectorAll('.ichart-ticks'))) {
              const spans = Array.from(axis.querySelectorAll('span')).filter((s) => getComputedStyle(s).visibility !== 'hidden');
              for (let i = 1; i < spans.length; i++) {
                const a = spans[i - 1]!.getBoundingClientRect();
                const b = spans[i]!.getBoundingClientRect();
                if (a.right > b.left) out.push(`${spans[i - 1]!.textContent} | ${spans[i]!.textContent}`);
              }
            }
            return out;
          })
        ).map((o) => `${width} px ${url}: ${o}`),
      );
    }
  }
  expect(overlaps).toEqual([]);
});

test('390 px: chart text stays legible (no tick label under 10 px)', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const url of [`/models/${MODEL}/pareto`, `/endpoints/${sweepEndpointId}/sweeps`]) {
    await page.goto(url);
    await expect(page.locator('figure svg[role="img"]').first()).toBeVisible();
    // Rendered size of SVG text = font size × the SVG's scale (a viewBox shrunk to the screen shrinks its text).
    const smallest = await page.evaluate(() => {
      let min = Infinity;
      for (const t of Array.from(document.querySelectorAll('figure svg text'))) {
        const h = (t as SVGTextElement).getBoundingClientRect().height;
        if (h > 0 && (t.textContent ?? '').trim() !== '') min = Math.min(min, h);
      }
      return min;
    });
    expect(smallest, url).toBeGreaterThanOrEqual(10);
  }
});
