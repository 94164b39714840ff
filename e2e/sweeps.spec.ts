import { expect, test, type Page } from '@playwright/test';
import { runTokenpaceCli } from './support/tokenpace-cli';

/**
 * A calibration sweep end to end on the real stack: an admin (granted by the operator's CLI)
 * consents to sweeps of the calibration endpoint and requests one through the API; the web process
 * sends the pg-boss job, a worker runs it against the reference server `tokenpace start` runs with
 * its capacity model; then the endpoint's sweep page (chart + table + history), the calibration
 * page's configured-vs-measured table and the model's Pareto page show it, with the same numbers
 * as GET /api/v1/sweeps/{id}.
 */

const RUN = Date.now().toString(36);
const ADMIN_EMAIL = `sweep-admin-${RUN}@tokenpace.example`;
const PASSWORD = 'e2e password that is long';

async function signUp(page: Page): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('Name (you or your team)').fill('Sweep admin');
  await page.getByLabel('Email').fill(ADMIN_EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test('an admin sweeps the calibration endpoint; the pages show the curve', async ({ page, baseURL }) => {
  test.setTimeout(240_000);
  await signUp(page);
  const grant = runTokenpaceCli(['admin', 'grant', ADMIN_EMAIL]);
  expect(grant.code).toBe(0);

  const endpoints = (await (await page.request.get('/api/v1/endpoints?model=tokenpace-reference')).json()) as { items: Array<{ id: number; slug: string }> };
  const calibration = endpoints.items[0]!;
  const headers = { origin: baseURL!, 'content-type': 'application/json' };

  const consent = await page.request.post(`/api/v1/endpoints/${calibration.id}/sweep-settings`, {
    headers,
    data: { enabled: true, maxConcurrency: 16, durationS: 5 },
  });
  expect(consent.status(), await consent.text()).toBe(200);
  const requested = await page.request.post(`/api/v1/endpoints/${calibration.id}/sweeps`, { headers, data: { concurrency: [1, 16], maxOutputTokens: 64 } });
  expect(requested.status(), await requested.text()).toBe(201);
  const sweepId = ((await requested.json()) as { sweep: { id: number } }).sweep.id;

  // the worker picks it up (pg-boss) and runs both levels: warm-up ≥ 5 s + 5 s window each
  let detail: {
    sweep: { status: string };
    levels: Array<{ concurrency: number; outputTokensPerSecond: { p50: number } | null; aggregateOutputTokensPerSecond: number }>;
  } | null = null;
  await expect
    .poll(
      async () => {
        detail = (await (await page.request.get(`/api/v1/sweeps/${sweepId}`)).json()) as typeof detail;
        return detail!.sweep.status;
      },
      { timeout: 180_000, intervals: [2000] },
    )
    .toMatch(/^(completed|stopped)$/);
  const levels = detail!.levels;
  expect(levels.map((l) => l.concurrency)).toEqual([1, 16]);
  // configured: 1000 tokens/s per user up to 8 streams, 8000 ÷ 16 = 500 at 16 (loose bounds: shared 2-core machine)
  expect(levels[0]!.outputTokensPerSecond!.p50).toBeGreaterThan(800);
  expect(levels[1]!.outputTokensPerSecond!.p50).toBeLessThan(levels[0]!.outputTokensPerSecond!.p50);

  await page.goto(`/endpoints/${calibration.id}/sweeps`);
  await expect(page.getByRole('heading', { name: 'Concurrency sweeps' })).toBeVisible();
  await expect(page.locator('figure[data-chart="endpoint-sweep"] svg[role="img"]')).toBeVisible();
  await expect(page.locator(`table[data-table="sweep-${sweepId}"] tbody tr`)).toHaveCount(2);
  await expect(page.locator(`table[data-table="sweep-${sweepId}"] tr[data-concurrency="16"]`)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'History of sweeps' })).toBeVisible();

  await page.goto('/calibration');
  await expect(page.getByRole('heading', { name: 'Calibration sweep: measured against configured curve' })).toBeVisible();
  await expect(page.locator('table[data-table="calibration-sweep"] tbody tr')).toHaveCount(2);

  await page.goto('/models/tokenpace-reference/pareto');
  await expect(page.locator('figure[data-chart="model-pareto"] svg[role="img"]')).toBeVisible();
  await expect(page.locator('[data-point]')).toHaveCount(2);
});
