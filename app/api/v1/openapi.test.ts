/**
 * Contract test of the public API: the OpenAPI document validates as OpenAPI 3.1, and every
 * documented operation, called through its real route handler with the documented example
 * parameters, answers 200 with a body matching the documented response schema (ajv, JSON Schema
 * 2020-12), CSV where documented, uniform errors for bad parameters, ETag/304 and CORS. Also: a
 * snapshot fetched after new measurements arrive is byte-identical to the first answer. The write
 * routes are documented with their bodies and auth, and every field of every schema in the
 * document has a description.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedCatalog } from '@/db/seed';
import { eq } from 'drizzle-orm';
import { annotations, disputes, endpoints, measurements, sweepLevels, sweeps, workloads } from '@/db/schema';
import { importClaimsFile } from '@/db/import/claims';
import { importLlmperfDir, LLMPERF_DATASET_SLUG } from '@/db/import/llmperf';
import { rebuildRollups } from '@/db/queries/rollups';
import { rollUpStoredMeasurements } from '@/db/test-support/roll-up-stored';
import { type TestDatabase } from '@/db/test-support/test-database';
import { createPublicApiDatabase } from './test-support/public-api-database';
import { API_OPERATIONS, buildOpenApiDocument, PUBLIC_READ_OPERATIONS } from '@/lib/api/openapi';
import { writeDump, lastCompleteWeek } from '@/workers/tasks/write-dump';
import { createHash } from 'node:crypto';
import { FIXTURES_DIR } from '@/lib/datasets/paths';
import { encodeTimeline } from '@/lib/probe/timeline-codec';

// Route handlers call next/server's connection(), which needs Next's request scope (the real
// server path is exercised by bench/api-scale.ts over HTTP).
vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

// `any`: handlers differ in their params' shape.
type Handler = (req: Request, ctx: { params: Promise<any> }) => Promise<Response>;
const ROUTES: Record<string, () => Promise<unknown>> = {
  '/api/v1/leaderboard': () => import('./leaderboard/route'),
  '/api/v1/leaderboard.csv': () => import('./leaderboard.csv/route'),
  '/api/v1/snapshots/{id}': () => import('./snapshots/[id]/route'),
  '/api/v1/models': () => import('./models/route'),
  '/api/v1/models.csv': () => import('./models.csv/route'),
  '/api/v1/workloads': () => import('./workloads/route'),
  '/api/v1/workloads.csv': () => import('./workloads.csv/route'),
  '/api/v1/providers': () => import('./providers/route'),
  '/api/v1/providers.csv': () => import('./providers.csv/route'),
  '/api/v1/endpoints': () => import('./endpoints/route'),
  '/api/v1/endpoints.csv': () => import('./endpoints.csv/route'),
  '/api/v1/endpoints/{id}': () => import('./endpoints/[id]/route'),
  '/api/v1/endpoints/{id}/measurements': () => import('./endpoints/[id]/measurements/route'),
  '/api/v1/endpoints/{id}/measurements.csv': () => import('./endpoints/[id]/measurements.csv/route'),
  '/api/v1/endpoints/{id}/review': () => import('./endpoints/[id]/review/route'),
  '/api/v1/measurements/{id}': () => import('./measurements/[id]/route'),
  '/api/v1/endpoints/{id}/sweeps': () => import('./endpoints/[id]/sweeps/route'),
  '/api/v1/endpoints/{id}/sweeps.csv': () => import('./endpoints/[id]/sweeps.csv/route'),
  '/api/v1/endpoints/{id}/sweep-settings': () => import('./endpoints/[id]/sweep-settings/route'),
  '/api/v1/sweeps/{id}': () => import('./sweeps/[id]/route'),
  '/api/v1/sweeps/{id}/levels.csv': () => import('./sweeps/[id]/levels.csv/route'),
  '/api/v1/dumps': () => import('./dumps/route'),
  '/api/v1/signing-keys': () => import('./signing-keys/route'),
  '/api/v1/rules': () => import('./rules/route'),
  '/api/v1/disputes': () => import('./disputes/route'),
  '/api/v1/disputes.csv': () => import('./disputes.csv/route'),
  '/api/v1/annotations': () => import('./annotations/route'),
  '/api/v1/endpoints/{id}/disputes': () => import('./endpoints/[id]/disputes/route'),
  '/api/v1/disputes/{id}/resolution': () => import('./disputes/[id]/resolution/route'),
  '/api/v1/dumps/{id}/manifest.json': () => import('./dumps/[id]/manifest.json/route'),
  '/api/v1/dumps/{id}/measurements.csv.gz': () => import('./dumps/[id]/measurements.csv.gz/route'),
  '/api/v1/submissions': () => import('./submissions/route'),
  '/api/v1/tokens': () => import('./tokens/route'),
  '/api/v1/tokens/{id}': () => import('./tokens/[id]/route'),
  '/api/v1/endpoints/{id}/uptime': () => import('./endpoints/[id]/uptime/route'),
  '/api/v1/endpoints/{id}/token-honesty': () => import('./endpoints/[id]/token-honesty/route'),
  '/api/v1/endpoints/{id}/families': () => import('./endpoints/[id]/families/route'),
  '/api/v1/endpoints/{id}/families.csv': () => import('./endpoints/[id]/families.csv/route'),
  '/api/v1/regions': () => import('./regions/route'),
  '/api/v1/endpoints/{id}/history': () => import('./endpoints/[id]/history/route'),
  '/api/v1/endpoints/{id}/history.csv': () => import('./endpoints/[id]/history.csv/route'),
  '/api/v1/endpoints/{id}/revisions': () => import('./endpoints/[id]/revisions/route'),
  '/api/v1/history': () => import('./history/route'),
  '/api/v1/history.csv': () => import('./history.csv/route'),
  '/api/v1/model-comparison': () => import('./model-comparison/route'),
  '/api/v1/model-comparison.csv': () => import('./model-comparison.csv/route'),
  '/api/v1/claims': () => import('./claims/route'),
  '/api/v1/claims.csv': () => import('./claims.csv/route'),
  '/api/v1/datasets': () => import('./datasets/route'),
  '/api/v1/datasets.csv': () => import('./datasets.csv/route'),
  '/api/v1/datasets/{slug}': () => import('./datasets/[slug]/route'),
  '/api/v1/openapi.json': () => import('./openapi.json/route'),
  '/api/v1/ping': () => import('./ping/route'),
};

const ORIGIN = 'http://localhost:3000';
const NOW = Date.now();
let t: TestDatabase;
const placeholders: Record<string, string> = {};
const doc = buildOpenApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'urn:tokenpace:openapi', components: doc.components } as object);

function schemaFor(opPath: string, status: string, contentType = 'application/json') {
  const op = (doc.paths as Record<string, { get: { responses: Record<string, { content?: Record<string, { schema: object }> }> } }>)[opPath]!.get;
  if (!op) throw new Error(`no GET documented for ${opPath}`);
  const schema = op.responses[status]?.content?.[contentType]?.schema;
  if (!schema) throw new Error(`no ${status} ${contentType} schema documented for ${opPath}`);
  // Component refs (#/components/schemas/X) resolve against the document registered above.
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"urn:tokenpace:openapi#/components/')) as object;
}

function expectMatches(opPath: string, status: string, body: unknown) {
  const validate = ajv.compile(schemaFor(opPath, status));
  const ok = validate(body);
  expect(ok, `${opPath} ${status}: ${JSON.stringify(validate.errors?.slice(0, 5))}`).toBe(true);
}

function fill(template: string, values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, v.replace(/\{(\w+)\}/g, (_, name: string) => placeholders[name] ?? `{${name}}`)]),
  ) as Record<string, string>;
}

async function call(
  opPath: string,
  query: Record<string, string> = {},
  pathParams: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<Response> {
  const mod = (await ROUTES[opPath]!()) as Record<string, Handler>;
  let url = opPath;
  for (const [k, v] of Object.entries(pathParams)) url = url.replace(`{${k}}`, encodeURIComponent(v));
  const qs = new URLSearchParams(query).toString();
  return mod.GET!(new Request(`${ORIGIN}${url}${qs ? `?${qs}` : ''}`, { headers }), { params: Promise.resolve(pathParams) });
}

beforeAll(async () => {
  t = await createPublicApiDatabase();
  const wl = [
    { slug: 'prose-1k', category: 'prose' as const, inputTokensTarget: 1000, maxOutputTokens: 256, concurrency: 1, scheduled: true },
    // a family workload, so /api/v1/endpoints/{id}/families has rows (decision 269)
    { slug: 'agent-turn-1', category: 'prose' as const, inputTokensTarget: 1100, maxOutputTokens: 256, concurrency: 1, scheduled: true },
  ];
  await seedCatalog(t.db, { workloads: wl, lookupEnv: () => 'x', referencePort: 3999 });
  await importLlmperfDir(t.db, path.join(FIXTURES_DIR, 'llmperf', 'individual'));
  await importClaimsFile(t.db, path.join(FIXTURES_DIR, 'claims', 'published-claims-2025-05.json'));
  const eps = await t.db.select({ id: endpoints.id, slug: endpoints.slug }).from(endpoints);
  const [wlRow] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, 'prose-1k'));
  const [agentRow] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, 'agent-turn-1'));
  const timeline = encodeTimeline(Array.from({ length: 50 }, (_, i) => ({ atMs: 150 + i * 2.5, tokens: 1, channel: 'answer' as const })));
  const rows: Array<typeof measurements.$inferInsert> = [];
  const chosen = ['groq', 'sambanova', 'fireworks'].map((p) => eps.find((e) => e.slug === `${p}-llama-4-maverick`)!); // fixed order: the figures below are per position
  for (let d = 0; d < 10 * 24; d++) {
    chosen.forEach((e, k) => {
      const speed = [300, 800, 310][k]! * (1 + 0.05 * Math.sin(d + k)) * (k === 2 && d < 100 ? 1.5 : 1);
      rows.push({
        jobKey: `api:${e.id}:${d}`,
        endpointId: e.id,
        workloadId: wlRow!.id,
        measuredAt: new Date(NOW - (d + 0.5) * 3600_000),
        workerRegion: d % 2 ? 'local' : 'eu-west',
        workerVersion: 'test',
        outcome: d % 17 === 0 ? 'error' : 'success',
        errorKind: d % 17 === 0 ? 'timeout' : null,
        // a failure is never rankable (measurements_rankable_check)
        rankable: d % 17 !== 0,
        notRankableReasons: d % 17 === 0 ? ['failed'] : [],
        ttftMs: d % 17 === 0 ? null : 150,
        ttfatMs: d % 17 === 0 ? null : 160,
        e2eMs: d % 17 === 0 ? null : 150 + 50_000 / speed,
        outputTokensReported: 50,
        outputTokensO200k: 52,
        outputTokensPerSecond: d % 17 === 0 ? null : speed,
        outputTokensPerSecondO200k: d % 17 === 0 ? null : speed * 1.04,
        contentChunks: 50,
        timeline,
      });
    });
  }
  for (let d = 0; d < 3; d++)
    rows.push({
      jobKey: `api:agent:${d}`,
      endpointId: chosen[0]!.id,
      workloadId: agentRow!.id,
      measuredAt: new Date(NOW - (d + 0.25) * 3600_000),
      workerRegion: 'local',
      workerVersion: 'test',
      outcome: 'success',
      rankable: true,
      notRankableReasons: [],
      ttftMs: 900 + d,
      e2eMs: 1500,
      outputTokensReported: 50,
      outputTokensO200k: 50,
      outputTokensPerSecond: 250,
      outputTokensPerSecondO200k: 250,
      contentChunks: 50,
      cachedInputTokens: 0,
      timeline,
    });
  await t.db.insert(measurements).values(rows);
  await rebuildRollups(t.db, { granularity: 'hour', from: new Date(NOW - 12 * 86400_000), to: new Date(NOW + 3600_000) });
  await rebuildRollups(t.db, { granularity: 'day', from: new Date(NOW - 12 * 86400_000), to: new Date(NOW + 3600_000) });
  placeholders.endpointId = String(chosen[0]!.id);
  const [firstMeasurement] = await t.db.select({ id: measurements.id }).from(measurements).where(eq(measurements.endpointId, chosen[0]!.id)).limit(1);
  placeholders.measurementId = String(firstMeasurement!.id);
  // one accepted dispute with its annotation (decision 232), before the dump so the manifest carries it
  const [dispute] = await t.db
    .insert(disputes)
    .values({
      endpointId: chosen[0]!.id,
      scope: 'window',
      fromAt: new Date(NOW - 9 * 86400_000),
      untilAt: new Date(NOW - 8 * 86400_000),
      reason: 'our worker region lost its network',
      status: 'accepted',
      resolution: 'confirmed by our logs',
      resolvedAt: new Date(NOW - 7 * 86400_000),
    })
    .returning({ id: disputes.id });
  await t.db.insert(annotations).values({
    endpointId: chosen[0]!.id,
    fromAt: new Date(NOW - 9 * 86400_000),
    untilAt: new Date(NOW - 8 * 86400_000),
    text: 'Dispute accepted: confirmed by our logs',
    disputeId: dispute!.id,
  });
  placeholders.dumpId = String((await writeDump(t.db, lastCompleteWeek(new Date(NOW)))).dump.id);
  // one finished sweep of that endpoint (issue 15) for the sweep routes
  const pct = (m: number) => ({ p5: 0.9 * m, p25: 0.95 * m, p50: m, p75: 1.05 * m, p95: 1.1 * m });
  const [sweep] = await t.db
    .insert(sweeps)
    .values({
      endpointId: chosen[0]!.id,
      status: 'completed',
      concurrencyLevels: [1, 2],
      durationMs: 1000,
      warmUpMs: 0,
      maxOutputTokens: 50,
      objectiveTtftMs: 450,
      objectiveTpotMs: 40,
      minSuccessRate: 0.9,
    })
    .returning({ id: sweeps.id });
  await t.db.insert(sweepLevels).values(
    [1, 2].map((n, i) => ({
      sweepId: sweep!.id,
      levelIndex: i,
      concurrency: n,
      requests: 4 * n,
      successes: 4 * n,
      outputTokensPerSecond: pct(300 / n),
      ttftMs: pct(100),
      tpotMs: pct((1000 * n) / 300),
      aggregateOutputTokensPerSecond: 300,
      completedRequestsPerSecond: n,
      goodputRequestsPerSecond: n,
      windowStartedAt: new Date(NOW - 3600_000),
      windowDurationMs: 1000,
      streams: { warmup: 1, measured: 4 * n, tail: 1 },
      eventLoopDelayP99Ms: 1,
      valid: true,
    })),
  );
  placeholders.sweepId = String(sweep!.id);
  placeholders.datasetSlug = LLMPERF_DATASET_SLUG;
  const lb = (await (await call('/api/v1/leaderboard')).json()) as { snapshotId: string };
  placeholders.snapshotId = lb.snapshotId;
}, 120_000);
afterAll(async () => t?.drop());

describe('OpenAPI document', () => {
  it('validates as OpenAPI 3.1 and is served at /api/v1/openapi.json', async () => {
    const result = await new Validator().validate(JSON.parse(JSON.stringify(doc)) as Parameters<Validator['validate']>[0]);
    expect(result, JSON.stringify(result.errors)).toEqual({ valid: true });
    expect(doc.openapi).toBe('3.1.0');
    const res = await call('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('documents every route it maps, and each documented operation has its handler', async () => {
    expect(Object.keys(doc.paths ?? {}).sort()).toEqual(Object.keys(ROUTES).sort());
    for (const p of Object.keys(ROUTES)) {
      const dir = p.replace('/api/v1/', '').replace(/\{(\w+)\}/g, '[$1]');
      expect(fs.existsSync(path.join(import.meta.dirname, dir, 'route.ts')), dir).toBe(true);
    }
    for (const op of API_OPERATIONS) {
      const mod = (await ROUTES[op.path]!()) as Record<string, unknown>;
      expect(typeof mod[(op.method ?? 'get').toUpperCase()], `${op.method ?? 'get'} ${op.path}`).toBe('function');
    }
  });

  it('documents the write routes: submission, edit, withdraw, review, tokens, with bodies and auth', () => {
    const paths = doc.paths as Record<string, Record<string, { security?: unknown[]; requestBody?: unknown; responses: Record<string, unknown> }>>;
    for (const [p, method] of [
      ['/api/v1/endpoints', 'post'],
      ['/api/v1/endpoints/{id}', 'patch'],
      ['/api/v1/endpoints/{id}', 'delete'],
      ['/api/v1/endpoints/{id}/review', 'post'],
      ['/api/v1/tokens', 'post'],
      ['/api/v1/tokens', 'get'],
      ['/api/v1/tokens/{id}', 'delete'],
      ['/api/v1/submissions', 'get'],
    ] as const) {
      const op = paths[p]?.[method];
      expect(op, `${method} ${p}`).toBeDefined();
      expect(op!.security, `${method} ${p}`).toBeDefined();
      expect(op!.responses['401'], `${method} ${p}`).toBeDefined();
      if (method === 'post' || method === 'patch') expect(op!.requestBody, `${method} ${p}`).toBeDefined();
    }
  });

  it('documents 429 with Retry-After and the uniform error shape on every operation', () => {
    for (const [p, item] of Object.entries(doc.paths ?? {})) {
      for (const [method, op] of Object.entries(
        item as Record<string, { responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: object }> }> }>,
      )) {
        expect(op.responses['429']?.headers?.['Retry-After'], `${method} ${p}`).toBeDefined();
        expect(op.responses['400']?.content?.['application/json']?.schema, `${method} ${p}`).toEqual({ $ref: '#/components/schemas/Error' });
      }
    }
  });

  it('every field of every schema in the document has a description', () => {
    const missing: string[] = [];
    const visit = (schema: unknown, where: string) => {
      if (!schema || typeof schema !== 'object') return;
      const s = schema as Record<string, unknown>;
      for (const [name, prop] of Object.entries((s.properties as Record<string, Record<string, unknown>>) ?? {})) {
        const described = (p: Record<string, unknown>): boolean =>
          typeof p.description === 'string' ||
          typeof p.$ref === 'string' ||
          (Array.isArray(p.anyOf) && (p.anyOf as Record<string, unknown>[]).some((a) => typeof a.description === 'string' || typeof a.$ref === 'string'));
        if (!described(prop)) missing.push(`${where}.${name}`);
        visit(prop, `${where}.${name}`);
      }
      for (const key of ['items', 'additionalProperties']) visit(s[key], `${where}[]`);
      for (const key of ['anyOf', 'oneOf', 'allOf']) for (const sub of (s[key] as unknown[]) ?? []) visit(sub, where);
    };
    for (const [id, schema] of Object.entries(doc.components?.schemas ?? {})) visit(schema, id);
    for (const [p, item] of Object.entries(doc.paths ?? {})) {
      for (const [method, op] of Object.entries(
        item as Record<
          string,
          {
            parameters?: Array<{ name: string; description?: string }>;
            requestBody?: { content: Record<string, { schema: unknown }> };
            responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
          }
        >,
      )) {
        for (const param of op.parameters ?? []) if (!param.description) missing.push(`${method} ${p} ?${param.name}`);
        visit(op.requestBody?.content['application/json']?.schema, `${method} ${p} body`);
        for (const [status, r] of Object.entries(op.responses)) visit(r.content?.['application/json']?.schema, `${method} ${p} ${status}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('every documented operation answers as documented', () => {
  for (const op of PUBLIC_READ_OPERATIONS) {
    it(`GET ${op.path}`, async () => {
      const pathParams = fill(op.path, op.examplePath ?? {});
      const query = fill(op.path, op.exampleQuery ?? {});
      const minute = Math.floor(Date.now() / 60_000);
      const res = await call(op.path, query, pathParams);
      const text = await res.clone().text();
      expect(res.status, text.slice(0, 300)).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const etag = res.headers.get('etag');
      expect(etag).toBeTruthy();
      expect(res.headers.get('cache-control')).toMatch(/max-age=\d+/);
      if (op.binary) {
        expect(res.headers.get('content-type')).toBe(op.binary);
        const bytes = Buffer.from(await res.clone().arrayBuffer());
        expect(createHash('sha256').update(bytes).digest('hex')).toBe(res.headers.get('x-checksum-sha256'));
        expect(bytes.length).toBe(Number(res.headers.get('content-length')));
      } else if (op.response) {
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expectMatches(op.path, '200', JSON.parse(text));
      } else {
        expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
        const header = text.split('\r\n')[0]!;
        expect(header.split(',').length).toBeGreaterThan(3);
        expect(text.split('\r\n').length).toBeGreaterThan(2); // header + at least one row
      }
      if (op.response && op.csv) {
        const csv = await call(op.path, query, pathParams, { accept: 'text/csv' });
        expect(csv.status).toBe(200);
        expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      }
      // Conditional GET. An answer "as of now" ends at the current minute: when the minute turned
      // since the first request, the answer (and its ETag) rightly changed; ask with the new one.
      let again = await call(op.path, query, pathParams, { 'if-none-match': etag! });
      if (again.status === 200 && again.headers.get('etag') !== etag && Math.floor(Date.now() / 60_000) !== minute) {
        again = await call(op.path, query, pathParams, { 'if-none-match': again.headers.get('etag')! });
      }
      expect(again.status).toBe(304);
      // Unknown parameters are rejected with the uniform error naming them
      if (op.query) {
        const bad = await call(op.path, { ...query, bogus: '1' }, pathParams);
        expect(bad.status).toBe(400);
        const body = (await bad.json()) as { error: { field?: string } };
        expectMatches(op.path, '400', body);
        expect(body.error.field).toBe('bogus');
      }
      if (op.pathParams) {
        const key = Object.keys(op.examplePath ?? {})[0]!;
        const missing = await call(op.path, query, {
          ...pathParams,
          [key]: key === 'id' && !op.path.startsWith('/api/v1/snapshots') ? '999999' : 'does-not-exist-000',
        });
        expect(missing.status).toBe(404);
        expectMatches(op.path, '404', await missing.json());
      }
    });
  }

  it('leaderboard rejects a bad window with field "window"', async () => {
    const res = await call('/api/v1/leaderboard', { window: '3 days' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; field: string } };
    expect(body.error).toMatchObject({ code: 'bad_request', field: 'window' });
    const future = await call('/api/v1/leaderboard', { at: new Date(Date.now() + 3600_000).toISOString() });
    expect(future.status).toBe(400);
    expect(((await future.json()) as { error: { field: string } }).error.field).toBe('at');
  });

  it('history carries change points: the +50 % step of the third endpoint', async () => {
    const series = (await (await call('/api/v1/history', { model: 'llama-4-maverick', window: '30d' })).json()) as {
      series: Array<{ endpoint: { slug: string }; days: unknown[]; changePoints: Array<{ label: string }> }>;
    };
    const fw = series.series.find((s) => s.endpoint.slug.startsWith('fireworks-'))!;
    expect(fw.days.length).toBeGreaterThanOrEqual(10);
    expect(fw.changePoints.map((c) => c.label).join()).toMatch(/^\+(4[5-9]|5[0-5])% on /);
    const eh = (await (await call('/api/v1/endpoints/{id}/history', { granularity: 'hour', window: '30d' }, { id: placeholders.endpointId! })).json()) as {
      series: unknown[];
      changePoints: unknown[];
      window: string;
    };
    expect(eh.series.length).toBeGreaterThan(200);
    // range= is the deprecated alias of window= and answers the same series
    const alias = (await (
      await call('/api/v1/endpoints/{id}/history', { granularity: 'hour', range: '30d' }, { id: placeholders.endpointId! })
    ).json()) as typeof eh;
    expect(alias).toEqual(eh);
  });
});

describe('snapshots for citation', () => {
  it('a snapshot fetched after new measurements arrive is byte-identical to the first answer', async () => {
    const first = await call('/api/v1/leaderboard', { model: 'llama-4-maverick', window: '24h', basis: 'o200k' });
    const firstBytes = Buffer.from(await first.arrayBuffer());
    const { snapshotId } = JSON.parse(firstBytes.toString('utf8')) as { snapshotId: string };
    const snap1 = Buffer.from(await (await call('/api/v1/snapshots/{id}', {}, { id: snapshotId })).arrayBuffer());
    expect(snap1.equals(firstBytes)).toBe(true);
    // New measurements arrive and are rolled up; the live board changes, the snapshot does not.
    const [ep] = await t.db.select({ id: endpoints.id }).from(endpoints).limit(1);
    const [wl] = await t.db.select({ id: workloads.id }).from(workloads).limit(1);
    await t.db.insert(measurements).values(
      Array.from({ length: 20 }, (_, i) => ({
        jobKey: `late:${i}`,
        endpointId: ep!.id,
        workloadId: wl!.id,
        measuredAt: new Date(NOW - 2 * 3600_000 + i * 1000),
        workerRegion: 'local',
        workerVersion: 'test',
        outcome: 'success' as const,
        outputTokensPerSecond: 5000,
        outputTokensPerSecondO200k: 5000,
      })),
    );
    await rollUpStoredMeasurements(t.db, new Date());
    const snap2 = await call('/api/v1/snapshots/{id}', {}, { id: snapshotId });
    expect(snap2.headers.get('cache-control')).toContain('immutable');
    expect(Buffer.from(await snap2.arrayBuffer()).equals(firstBytes)).toBe(true);
  });
});
