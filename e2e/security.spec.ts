import { expect, test, type APIResponse } from '@playwright/test';
import { startReferenceServer, type ReferenceServer } from '../lib/reference-server/reference-server';

/**
 * Issue 11, against the real `tokenpace start` (Next behind the peer-address preload) in Chromium:
 * security headers on every page (framing only for /embed/*), pages still hydrate under the CSP,
 * `next=` cannot leave the site, absolute links ignore X-Forwarded-Host/Proto, sign-in limits hold
 * with form bodies and forged X-Forwarded-For, unlisted providers 404, look-alike names refused.
 */

const RUN = Date.now().toString(36);
const PASSWORD = 'e2e password that is long';
const ORIGIN = `http://localhost:${Number(process.env.E2E_PORT ?? 3210)}`;

let ref: ReferenceServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ref = await startReferenceServer({ port: 0, tps: 400, ttftMs: 20, outputTokens: 32, tokensPerChunk: 2 });
});
test.afterAll(async () => {
  await ref?.close();
});

/** The headers every page must send; `framable` for the embeds. */
function expectSecurityHeaders(res: APIResponse | null, what: string, framable = false): void {
  expect(res, what).not.toBeNull();
  const h = res!.headers();
  const csp = h['content-security-policy'] ?? '';
  expect(csp, `${what}: CSP`).toContain("default-src 'self'");
  expect(csp, `${what}: CSP`).toContain("object-src 'none'");
  expect(csp, `${what}: CSP`).toContain("base-uri 'self'");
  expect(csp, `${what}: CSP`).toContain("form-action 'self'");
  if (framable) {
    expect(csp, `${what}: embeds may be framed`).toContain('frame-ancestors *');
    expect(h['x-frame-options'], what).toBeUndefined();
  } else {
    expect(csp, `${what}: never framed`).toContain("frame-ancestors 'none'");
    expect(h['x-frame-options'], what).toBe('DENY');
  }
  expect(h['x-content-type-options'], what).toBe('nosniff');
  expect(h['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
}

test('every page sends CSP, nosniff, Referrer-Policy and frame-ancestors (embeds may be framed)', async ({ request }) => {
  for (const path of ['/', '/signin', '/signup', '/providers', '/models/llama-4-maverick', '/feed', '/no-such-page', '/feed.xml', '/api/v1/ping']) {
    expectSecurityHeaders(await request.get(path), path);
  }
  expectSecurityHeaders(await request.get('/embed/leaderboard?model=llama-4-maverick&workload=prose-1k&window=72h'), '/embed/leaderboard', true);
  // the private pages: the redirect of an anonymous visitor, then the pages themselves signed in
  const anon = await request.get('/dashboard', { maxRedirects: 0 });
  expect(anon.status()).toBe(307);
  expectSecurityHeaders(anon, '/dashboard (anonymous redirect)');
  const email = `headers-api-${RUN}@secure.example`;
  expect((await request.post('/api/auth/sign-up/email', { headers: { origin: ORIGIN }, data: { email, password: PASSWORD, name: 'Headers' } })).status()).toBe(
    200,
  );
  expect((await request.post('/api/auth/sign-in/email', { headers: { origin: ORIGIN }, data: { email, password: PASSWORD } })).status()).toBe(200);
  for (const path of ['/dashboard', '/submit', '/dashboard/tokens']) {
    const res = await request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(200);
    expectSecurityHeaders(res, path);
  }
});

test('pages hydrate under the CSP (no violations) and next= cannot leave the site', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to (execute|load|apply|connect|frame)/i.test(m.text())) violations.push(m.text());
  });
  // Sign up through the form with the open-redirect payload of the finding: the form's script runs
  // under the CSP (a blocked script would leave a native GET form submit on /signup), sign-up then
  // sign-in happen over fetch, and the browser lands on our dashboard, not on evil.example.
  await page.goto('/signup?next=%2F%09%2Fevil.example%2Fphish');
  await page.getByLabel('Name (you or your team)').fill('Headers team');
  await page.getByLabel('Email').fill(`headers-${RUN}@secure.example`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(`${ORIGIN}/dashboard`);
  await expect(page.getByRole('heading', { name: 'Your endpoints' })).toBeVisible();
  await page.goto('/submit');
  await expect(page.getByRole('heading', { name: 'Submit an endpoint' })).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(violations).toEqual([]);
});

test('absolute links come from TOKENPACE_PUBLIC_URL, never from X-Forwarded-Host/Proto', async ({ request }) => {
  const forged = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'javascript', host: 'evil.example' };
  const feed = await request.get('/feed.xml', { headers: forged });
  expect(feed.status()).toBe(200);
  const xml = await feed.text();
  expect(xml).not.toContain('evil.example');
  expect(xml).not.toContain('javascript:');
  expect(xml).toContain(`href="${ORIGIN}/feed.xml"`);
  const home = await request.get('/', { headers: forged });
  expect(await home.text()).not.toContain('evil.example');
  // A model's board carries the absolute embed snippet (the home page compares models).
  const board = await request.get('/?model=llama-4-maverick', { headers: forged });
  const html = await board.text();
  expect(html).not.toContain('evil.example');
  expect(html).toContain(`${ORIGIN}/embed/leaderboard?`);
});

test('sign-in per-email limit holds with form-encoded bodies and forged X-Forwarded-For', async ({ request }) => {
  const email = `limit-${RUN}@secure.example`;
  const statuses: number[] = [];
  // default limit: 10 attempts per email per 15 minutes
  for (let i = 0; i < 11; i++) {
    const headers = { 'x-forwarded-for': `203.0.113.${i + 1}`, 'x-tokenpace-peer-address': `198.51.100.${i + 1}`, origin: ORIGIN };
    const res =
      i % 2 === 0
        ? await request.post('/api/auth/sign-in/email', { headers, data: { email, password: 'wrong password!' } })
        : await request.post('/api/auth/sign-in/email', { headers, form: { email: email.toUpperCase(), password: 'wrong password!' } });
    statuses.push(res.status());
  }
  expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
  expect(statuses[10]).toBe(429);
});

test('providers of unreviewed submissions 404; look-alike names are refused', async ({ request }) => {
  const email = `lookalike-${RUN}@secure.example`;
  expect(
    (await request.post('/api/auth/sign-up/email', { headers: { origin: ORIGIN }, data: { email, password: PASSWORD, name: 'Pending Co' } })).status(),
  ).toBe(200);
  expect((await request.post('/api/auth/sign-in/email', { headers: { origin: ORIGIN }, data: { email, password: PASSWORD } })).status()).toBe(200);
  const body = {
    model: 'llama-4-maverick',
    baseUrl: ref.url,
    protocol: 'openai-chat',
    apiModelId: 'tokenpace-reference',
    deploymentKind: 'shared',
    contact: email,
  };
  const submitted = await request.post('/api/v1/endpoints', { data: { ...body, provider: `Zeta Pending ${RUN}` } });
  expect(submitted.status()).toBe(201);
  const providerSlug = ((await submitted.json()) as { endpoint: { providerSlug: string } }).endpoint.providerSlug;
  expect((await request.get(`/providers/${providerSlug}`)).status()).toBe(404);
  expect((await request.get('/providers/groq')).status()).toBe(200);
  for (const provider of ['G\u200broq', 'Gr\u043eq']) {
    const res = await request.post('/api/v1/endpoints', { data: { ...body, provider } });
    expect(res.status(), provider).toBe(400);
    expect(((await res.json()) as { error: { field: string } }).error.field).toBe('provider');
  }
});

test('unknown model, workload or id on pages, embeds and OG images: 404, the URL text never shown (issue 19 #5, #14)', async ({ page, request }) => {
  const MARK = `zz-planted-${RUN}`;
  const eps = (await (await request.get('/api/v1/endpoints?model=llama-4-maverick')).json()) as { items: Array<{ id: number }> };
  const endpointId = eps.items[0]!.id;
  // Pages and embeds without a streaming boundary: a real 404 status; the visible text never carries the planted name.
  for (const path of [
    `/?model=${MARK}`,
    `/?workload=${MARK}`,
    `/embed/leaderboard?model=${MARK}`,
    `/embed/leaderboard?model=llama-4-maverick&workload=${MARK}`,
    `/embed/history?model=${MARK}`,
    `/embed/endpoints/${endpointId}?workload=${MARK}`,
  ]) {
    const res = await page.goto(path);
    expect(res!.status(), path).toBe(404);
    await expect(page.getByTestId('not-found'), path).toBeVisible();
    expect(await page.locator('body').innerText(), path).not.toContain(MARK);
  }
  // The model page streams below loading.tsx: the not-found content, never a board for the planted workload.
  await page.goto(`/models/llama-4-maverick?workload=${MARK}`);
  await expect(page.getByTestId('not-found')).toBeVisible();
  expect(await page.locator('body').innerText()).not.toContain(MARK);
  // OG images: 404, nothing drawn; the API: 404 naming the field (its JSON error quotes the value asked for)
  for (const path of [`/models/${MARK}/opengraph-image`, '/endpoints/999999/opengraph-image']) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(404);
    expect(res.headers()['content-type'], path).not.toContain('image/');
    expect(await res.text(), path).not.toContain(MARK);
  }
  for (const [path, field] of [
    [`/api/v1/leaderboard?model=${MARK}`, 'model'],
    [`/api/v1/leaderboard.csv?workload=${MARK}`, 'workload'],
  ] as const) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(404);
    expect(((await res.json()) as { error: { field: string } }).error.field, path).toBe(field);
  }
  // A known model's OG image twice: the second is served from the render cache.
  const first = await request.get('/models/llama-4-maverick/opengraph-image');
  expect(first.status()).toBe(200);
  const second = await request.get('/models/llama-4-maverick/opengraph-image');
  expect(second.headers()['x-tokenpace-og-cache']).toBe('hit');
  expect(Buffer.compare(await first.body(), await second.body())).toBe(0);
});
