import { expect, test, type APIRequestContext } from '@playwright/test';

/** The calibration endpoint's latest measurements as `time workload outcome reasons` lines. */
async function describeCalibration(request: APIRequestContext): Promise<string> {
  const list = (await (await request.get('/api/v1/endpoints')).json()) as { items: Array<{ id: number; isCalibration: boolean }> };
  const id = list.items.find((e) => e.isCalibration)?.id;
  if (id === undefined) return 'no calibration endpoint';
  const page = (await (await request.get(`/api/v1/endpoints/${id}/measurements?limit=40`)).json()) as {
    items: Array<{
      measuredAt: string;
      workload: string;
      outcome: string;
      notRankableReasons: string[];
      ttftBoundMs: number | null;
      speedBoundPct: number | null;
    }>;
  };
  if (page.items.length === 0) return 'none';
  return page.items
    .map((m) => `\n  ${m.measuredAt} ${m.workload} ${m.outcome} [${m.notRankableReasons.join(',')}] ttft±${m.ttftBoundMs} speed±${m.speedBoundPct}%`)
    .join('');
}

/**
 * The walking skeleton's promise: from a clean data directory, `tokenpace start` shows within two
 * minutes the home page with live calibration measurements, the seeded catalog, claims and the
 * LLMPerf data.
 */
test('fresh start shows calibration measurements, catalog, claims and LLMPerf data', async ({ page, request }) => {
  const startedAt = Number(process.env.TOKENPACE_E2E_STARTED_AT ?? Date.now());
  // Calibration measurements arrive from the worker's first slot; poll the API (no sleeps in assertions).
  let boardAsOf = '';
  try {
    await expect
      .poll(
        async () => {
          const res = await request.get('/api/v1/leaderboard?model=tokenpace-reference');
          const body = (await res.json()) as { asOf: string; entries: Array<{ n: number; samples: number }> };
          boardAsOf = body.asOf;
          return body.entries[0]?.samples ?? 0;
        },
        { timeout: 110_000, intervals: [1000] },
      )
      .toBeGreaterThan(0);
  } catch (err) {
    // Say why: the board's minute, and what the calibration endpoint's measurements were.
    throw new Error(
      `no rankable headline measurement within 110 s; board as of ${boardAsOf}; calibration measurements: ${await describeCalibration(request)}`,
      {
        cause: err,
      },
    );
  }
  expect(Date.now() - startedAt).toBeLessThan(120_000 + 60_000); // start (incl. first build) + first probe

  // The home page compares the catalog's models; with no provider key set it says so in a visitor's
  // words and points at what can be seen meanwhile.
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 2, name: 'No model has been measured here yet' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'how accurately Tokenpace measures' })).toHaveAttribute('href', '/calibration');
  await expect(page.getByRole('link', { name: 'measurements others published' })).toHaveAttribute('href', '/datasets');
  expect(await page.locator('table[data-table="model-comparison"] tbody tr').count()).toBeGreaterThanOrEqual(12);
  await page.locator('tr[data-model="llama-4-maverick"]').getByRole('link', { name: 'board of Llama 4 Maverick 17B-128E Instruct' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Llama 4 Maverick');
  // Seeded catalog: providers from the claims are listed (inactive until their API key is set).
  for (const provider of ['SambaNova', 'Groq', 'Amazon Bedrock', 'NVIDIA']) {
    await expect(page.getByRole('link', { name: provider, exact: true }).first()).toBeVisible();
  }
  // Calibration panel with a measured speed close to the configured 1,000 TPS/user.
  const measured = page.locator('[data-metric="calibration-measured"]').first();
  await expect(measured).not.toHaveText('–');
  const value = Number((await measured.innerText()).replace(/,/g, ''));
  expect(value).toBeGreaterThan(900);
  expect(value).toBeLessThan(1100);
  // Claims shown as claims, with source and bound.
  await expect(page.getByText('1,038 tokens/s')).toBeVisible();
  await expect(page.getByText("Tom's Hardware").first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('home.png'), fullPage: true });

  // LLMPerf data on its own page, labelled with source, date and licence.
  await page.getByRole('link', { name: 'Imported data' }).click();
  await page.getByRole('link', { name: /LLMPerf leaderboard raw data/ }).click();
  await expect(page.getByText('Imported data, not Tokenpace measurements.')).toBeVisible();
  await expect(page.getByText(/Licence: Apache-2.0/)).toBeVisible();
  await expect(page.getByText(/Collected: 2024-01-09/)).toBeVisible();
  const groq = page.locator('tr[data-series="groq_70b"] [data-metric="tps-p50"]');
  expect(Number((await groq.innerText()).replace(/,/g, ''))).toBeGreaterThan(100);
});
