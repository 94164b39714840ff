/**
 * Issue 19 finding 12 (decision 165): a key planted in a probe's context never comes back into a
 * stored row, in any spelling. A real local HTTP server reads the probe's own API key from its
 * Authorization header and echoes it, with a secret configured in the environment, raw, base64,
 * base64url, hex, base64 inside a longer blob, and split by JSON `\u` escapes: in the answer text of
 * a fidelity probe, in the finish reason, and in a 500 error body. The probes run through the real
 * worker task (SSRF-guarded fetch, encrypted key, real Postgres); every stored measurement row (as
 * JSON) contains none of the spellings, and a base64/hex run in it decodes to neither secret.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '@/db/seed';
import { endpoints, workloads } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { configuredSecrets } from '@/lib/env';
import { injectLateness, restoreLateness } from '@/lib/probe/test-support/injected-lateness';
import type { FetchLike } from '@/lib/probe/types';
import { encryptSecret, secretSpellings } from '@/lib/security/secrets';
import { runProbeJob } from './probe-endpoint';
import { closeFetches, probeTaskContext } from './test-support/probe-task-context';

const KEY = `tp-live-${randomBytes(16).toString('hex')}`;
const CONFIGURED = `cfg-${randomBytes(12).toString('hex')}`;
const b64 = (s: string) => Buffer.from(s).toString('base64');
const unicodeSplit = (s: string) =>
  s
    .split('')
    .map((c, i) => (i % 3 === 0 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c))
    .join('');

/** Every spelling the server echoes, given the key it was sent. */
function echoes(key: string): string[] {
  return [
    key,
    b64(key),
    Buffer.from(key).toString('base64url'),
    Buffer.from(key).toString('hex'),
    b64(`{"Authorization":"Bearer ${key}"}`),
    CONFIGURED,
    b64(CONFIGURED),
    'Bearer sk-proj-abcdefghijklmnopqrstuvwx',
  ];
}

let t: TestDatabase;
let server: http.Server;
let port = 0;
const secretKey = randomBytes(32);
const fetches: FetchLike[] = [];
const ids: Record<string, number> = {};

beforeAll(async () => {
  injectLateness('quiet');
  process.env.EXAMPLE_PROVIDER_API_KEY = CONFIGURED;
  configuredSecrets(true);
  t = await createTestDatabase();
  server = http.createServer((req, res) => {
    req.resume();
    const key = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (req.url?.startsWith('/fail')) {
      // a JSON error body: the key base64-encoded, raw, and split by \u escapes
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(`{"error":{"message":"bad key ${b64(key)} (${key})","echo":"${unicodeSplit(key)}","also":"${echoes(key).join(' ')}"}}`);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }));
    for (const e of echoes(key)) res.write(chunk({ content: `echo ${e} ` }));
    res.write(chunk({}, `stop ${b64(key)}`));
    res.end('data: [DONE]\n\n');
  });
  port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: port });
  const [cal] = await t.db.select({ providerId: endpoints.providerId, modelId: endpoints.modelId }).from(endpoints).where(eq(endpoints.isCalibration, true));
  for (const slug of ['echo', 'fail']) {
    const [e] = await t.db
      .insert(endpoints)
      .values({
        slug: `${slug}-local`,
        providerId: cal!.providerId,
        modelId: cal!.modelId,
        protocol: 'openai-chat',
        baseUrl: `http://127.0.0.1:${port}/${slug}/v1`,
        apiModelId: 'm',
        apiKeyEncrypted: encryptSecret(KEY, secretKey),
        allowPrivate: true,
        status: 'active',
      })
      .returning({ id: endpoints.id });
    ids[slug] = e!.id;
  }
}, 120_000);

afterAll(async () => {
  restoreLateness();
  delete process.env.EXAMPLE_PROVIDER_API_KEY;
  configuredSecrets(true);
  await closeFetches(fetches);
  server?.close();
  await t?.drop();
});

/** Runs of base64 or hex characters in `text`, decoded at every alignment. */
function decodedRuns(text: string): string[] {
  const out: string[] = [];
  for (const run of text.match(/[A-Za-z0-9+/_-]{12,}/g) ?? []) {
    for (let k = 0; k < 4; k++) out.push(Buffer.from(run.slice(k), 'base64').toString('latin1'));
    if (/^[0-9a-fA-F]+$/.test(run)) for (let k = 0; k < 2; k++) out.push(Buffer.from(run.slice(k), 'hex').toString('latin1'));
  }
  return out;
}

describe('stored provider text is redacted of the key and configured secrets in every spelling', () => {
  it.each([
    ['echo', true],
    ['echo', false],
    ['fail', false],
  ] as const)(
    '%s endpoint (fidelity %s): no spelling of either secret in the stored row',
    async (slug, fidelity) => {
      const [w] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, 'prose-100'));
      const slotStart = `2026-11-30T12:0${fidelity ? 1 : 2}:00.000Z`;
      const jobKey = `probe:${ids[slug]}:${w!.id}:local:${slotStart}`;
      const r = await runProbeJob(probeTaskContext(t.db, { secretKey }, fetches), `boss-${jobKey}`, {
        endpointId: ids[slug]!,
        workloadId: w!.id,
        region: 'local',
        slotStart,
        jobKey,
        fidelity,
      });
      expect(r.status).toBe('recorded');
      const rows = (await t.sql`select row_to_json(m)::text as j from measurements m where job_key like ${`${jobKey}%`}`) as unknown as Array<{ j: string }>;
      expect(rows.length).toBeGreaterThan(0);
      for (const { j } of rows) {
        const stored = JSON.parse(j) as Record<string, unknown>;
        const text = JSON.stringify(stored);
        // the row really kept the server's text (redacted), not nothing
        if (slug === 'fail') expect(String(stored.error_message)).toContain('[REDACTED]');
        if (fidelity) expect(String(stored.answer_text)).toContain('echo [REDACTED]');
        for (const secret of [KEY, CONFIGURED]) {
          for (const spelling of secretSpellings(secret)) expect(text, spelling).not.toContain(spelling);
          expect(decodedRuns(text).some((d) => d.includes(secret))).toBe(false);
        }
        expect(text).not.toContain('sk-proj-abcdefghijklmnopqrstuvwx');
      }
    },
    60_000,
  );
});
