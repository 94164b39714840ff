/**
 * Shared checks of the page walk (e2e/pages.spec.ts): axe with zero serious/critical violations,
 * full-page screenshots attached to the report, no horizontal page overflow, numbers read from
 * formatted cells.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';

/** Runs axe-core on the page (all rules) and fails listing any serious or critical violation. */
export async function expectNoSeriousA11yViolations(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map(
    (v) =>
      `${v.impact} ${v.id}: ${v.help} (${v.nodes.length}×: ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(' | ')})`,
  );
  expect(summary, `axe on ${name}`).toEqual([]);
}

/** Full-page screenshot saved in the test's output folder and attached to the HTML report. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** The document does not scroll sideways (tables and charts scroll inside their own wrappers). */
export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, 'page width').toBeLessThanOrEqual(clientWidth);
}

/** "1,080.3" → 1080.3; "–" → null. */
export function num(text: string | null | undefined): number | null {
  const t = (text ?? '').replace(/,/g, '').trim();
  if (t === '' || t === '–') return null;
  const n = Number.parseFloat(t);
  return Number.isFinite(n) ? n : null;
}

/** Waits until every recharts figure on the page has drawn its SVG surface. */
export async function waitForCharts(page: Page): Promise<void> {
  const figures = page.locator('figure.chart');
  const n = await figures.count();
  for (let i = 0; i < n; i++) await expect(figures.nth(i).locator('svg.recharts-surface').first()).toBeVisible();
}
