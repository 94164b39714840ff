/**
 * Issue 20 item 5 (decision 178): an endpoint's declared metadata has dated revisions. Every edit
 * path writes one when a declared field changes (catalog seed, submission, owner edit) and none when
 * nothing declared changed (re-seed, review, pause); every stored measurement names the revision in
 * force; the revisions, the measurements' revision ids and a change point's nearby revision are
 * published over real HTTP (the production route handlers on 127.0.0.1), and in the weekly dump.
 * Real Postgres, real reference server for the verification probe.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { disclosureRevisions, endpoints, measurements, workloads } from '@/db/schema';
import { insertMeasurement } from '@/db/queries/measurements';
import { recordDisclosure } from '@/db/queries/disclosure-revisions';
import { rebuildRollups } from '@/db/queries/rollups';
import { seedCatalog } from '@/db/seed';
import type { TestDatabase } from '@/db/test-support/test-database';
import { startReferenceServer, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { params, req, setupApiTest, signUp, signUpAdmin, type Actor } from '@/app/api/test-support/api-test';
import { serveApi } from '../test-support/serve-api';
import { writeDump } from '@/workers/tasks/write-dump';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { listDisclosureRevisions } from '@/db/queries/disclosure-revisions';
import { RevisionHistory } from '@/app/_components/revision-history';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

const DAY = 86_400_000;
const WORKLOADS = [{ slug: 'prose-1k', category: 'prose' as const, inputTokensTarget: 1000, maxOutputTokens: 256, concurrency: 1, scheduled: true }];
let t: TestDatabase;
let ref: ReferenceServer;
let api: { baseUrl: string; close: () => Promise<void> };
let routes: { list: typeof import('./route'); one: typeof import('./[id]/route'); review: typeof import('./[id]/review/route') };
let owner: Actor;
let admin: Actor;
let prose: number;

const seed = () => seedCatalog(t.db, { workloads: WORKLOADS, lookupEnv: () => 'x', referencePort: null });
const revisionsOf = (endpointId: number) =>
  t.db.select().from(disclosureRevisions).where(eq(disclosureRevisions.endpointId, endpointId)).orderBy(asc(disclosureRevisions.number));
async function call(res: Promise<Response>) {
  const r = await res;
  return { status: r.status, json: (await r.json()) as any };
}
const getJson = async (path: string) => {
  const r = await fetch(`${api.baseUrl}${path}`);
  return { status: r.status, json: (await r.json()) as any };
};
const review = (id: number, revision: number) =>
  call(routes.review.POST(req(admin, 'POST', `/api/v1/endpoints/${id}/review`, { decision: 'approve', revision }), params({ id: String(id) })));
const patch = (id: number, body: Record<string, unknown>) =>
  call(routes.one.PATCH(req(owner, 'PATCH', `/api/v1/endpoints/${id}`, body), params({ id: String(id) })));

/** One successful measurement stored through the worker's insert path. */
function probeRow(endpointId: number, at: Date, speed: number, key: string) {
  return {
    jobKey: key,
    endpointId,
    workloadId: prose,
    measuredAt: at,
    workerRegion: 'local',
    workerVersion: 'test',
    outcome: 'success' as const,
    ttftMs: 120,
    e2eMs: 1200,
    outputTokensReported: 256,
    outputTokensO200k: 256,
    outputTokensPerSecond: speed,
    outputTokensPerSecondO200k: speed,
    contentChunks: 20,
  };
}

beforeAll(async () => {
  t = await setupApiTest({ TOKENPACE_MAX_PENDING_SUBMISSIONS: '20', TOKENPACE_PUBLIC_RATE_LIMIT_PER_MINUTE: '0' });
  await seed();
  [{ id: prose }] = (await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, 'prose-1k'))) as [{ id: number }];
  ref = await startReferenceServer({ port: 0, tps: 2000, ttftMs: 5, outputTokens: 16, tokensPerChunk: 2 });
  routes = { list: await import('./route'), one: await import('./[id]/route'), review: await import('./[id]/review/route') };
  owner = await signUp('owner@disclosure.example');
  admin = await signUpAdmin(t.db, 'admin@disclosure.example');
  api = await serveApi();
}, 180_000);

afterAll(async () => {
  await api?.close();
  await ref?.close();
  await t?.drop();
});

describe('catalog seed', () => {
  it('gives every seeded endpoint revision 1 with its declared values; a re-seed without a change writes none; a catalog fact that differs from the newest revision is a new one', async () => {
    const [groq] = await t.db
      .select({ id: endpoints.id, engine: endpoints.engine, apiModelId: endpoints.apiModelId, ctx: endpoints.contextWindowTokens })
      .from(endpoints)
      .where(eq(endpoints.slug, 'groq-llama-4-maverick'));
    const first = await revisionsOf(groq!.id);
    expect(first).toHaveLength(1);
    expect(first[0]!.source).toBe('catalog');
    expect(first[0]!.values).toMatchObject({
      modelSlug: 'llama-4-maverick',
      apiModelId: groq!.apiModelId,
      engine: groq!.engine,
      contextWindowTokens: groq!.ctx,
    });
    const total = (await t.db.select().from(disclosureRevisions)).length;
    expect(total).toBe((await t.db.select().from(endpoints)).length);

    await seed();
    expect((await t.db.select().from(disclosureRevisions)).length).toBe(total);

    // An admin declared another engine (revision 2); the reviewed catalog file says otherwise: the next seed is revision 3, dated.
    await t.db.transaction(async (tx) => {
      await tx.update(endpoints).set({ engine: 'an older engine' }).where(eq(endpoints.id, groq!.id));
      await recordDisclosure(tx, { endpointId: groq!.id, source: 'admin', userId: admin.userId });
    });
    await seed();
    const after = await revisionsOf(groq!.id);
    expect(after.map((r) => [r.number, r.source, r.changedFields])).toEqual([
      [1, 'catalog', expect.any(Array)],
      [2, 'admin', ['engine']],
      [3, 'catalog', ['engine']],
    ]);
    expect(after.map((r) => r.values.engine)).toEqual([groq!.engine, 'an older engine', groq!.engine]);
    expect(after[2]!.effectiveFrom.getTime()).toBeGreaterThanOrEqual(after[1]!.effectiveFrom.getTime());
  });
});

describe('submission and owner edits', () => {
  let id: number;

  it('a submission is revision 1 (context window included); review and pause write none; each declared change is a new revision that later measurements name', async () => {
    const body = {
      provider: 'Honest Cloud',
      model: 'llama-4-maverick',
      baseUrl: ref.url,
      protocol: 'openai-chat',
      apiModelId: 'maverick-fp8',
      deploymentKind: 'shared',
      contact: 'ops@honest.example',
      hardware: 'H100 SXM',
      engine: 'vLLM',
      precision: 'FP8',
      contextWindowTokens: 131072,
    };
    const created = await call(routes.list.POST(req(owner, 'POST', '/api/v1/endpoints', body)));
    expect(created.status).toBe(201);
    id = created.json.endpoint.id;
    expect(created.json.endpoint.contextWindowTokens).toBe(131072);
    let revs = await revisionsOf(id);
    expect(revs.map((r) => [r.number, r.source, r.changedByUserId])).toEqual([[1, 'submission', owner.userId]]);
    expect(revs[0]!.values).toEqual({
      modelSlug: 'llama-4-maverick',
      apiModelId: 'maverick-fp8',
      hardware: 'H100 SXM',
      gpuCount: null,
      engine: 'vLLM',
      precision: 'FP8',
      speculativeDecoding: null,
      draftLength: null,
      deploymentKind: 'shared',
      region: null,
      system: null,
      contextWindowTokens: 131072,
    });

    expect((await review(id, 1)).status).toBe(200);
    expect((await patch(id, { status: 'paused' })).status).toBe(200);
    expect((await patch(id, { status: 'active' })).status).toBe(200);
    expect((await patch(id, { notes: 'on-call: ops@honest.example' })).status).toBe(200);
    expect(await revisionsOf(id)).toHaveLength(1);

    await insertMeasurement(t.db, probeRow(id, new Date(), 500, `d:${id}:1`));
    const edit = await patch(id, { engine: 'SGLang', speculativeDecoding: 'EAGLE-3', draftLength: 3 });
    expect(edit.status).toBe(200);
    revs = await revisionsOf(id);
    expect(revs.map((r) => [r.number, r.source, r.changedFields])).toEqual([
      [1, 'submission', ['modelSlug', 'apiModelId', 'hardware', 'engine', 'precision', 'deploymentKind', 'contextWindowTokens']],
      [2, 'owner_edit', ['engine', 'speculativeDecoding', 'draftLength']],
    ]);
    expect(revs[1]!.values).toMatchObject({ engine: 'SGLang', speculativeDecoding: 'EAGLE-3', draftLength: 3, hardware: 'H100 SXM' });
    expect((await review(id, edit.json.endpoint.revision)).status).toBe(200);
    await insertMeasurement(t.db, probeRow(id, new Date(), 700, `d:${id}:2`));

    const stored = await t.db
      .select({ key: measurements.jobKey, rev: measurements.disclosureRevisionId })
      .from(measurements)
      .where(eq(measurements.endpointId, id))
      .orderBy(asc(measurements.id));
    expect(stored).toEqual([
      { key: `d:${id}:1`, rev: revs[0]!.id },
      { key: `d:${id}:2`, rev: revs[1]!.id },
    ]);
  });

  it('publishes the revisions and each measurement’s revision id over HTTP; an unknown endpoint is a 404 naming id', async () => {
    const revs = await revisionsOf(id);
    const list = await getJson(`/api/v1/endpoints/${id}/revisions`);
    expect(list.status).toBe(200);
    expect(list.json.endpointId).toBe(id);
    expect(list.json.items.map((r: any) => [r.id, r.number, r.source, r.values.engine])).toEqual([
      [revs[1]!.id, 2, 'owner_edit', 'SGLang'],
      [revs[0]!.id, 1, 'submission', 'vLLM'],
    ]);
    expect(JSON.stringify(list.json)).not.toContain(owner.userId!); // who is a role, never an account id
    const page = await getJson(`/api/v1/endpoints/${id}/measurements?limit=10`);
    expect(page.status).toBe(200);
    expect(page.json.items.map((m: any) => m.disclosureRevisionId)).toEqual([revs[1]!.id, revs[0]!.id]);
    const missing = await getJson('/api/v1/endpoints/999999/revisions');
    expect(missing.status).toBe(404);
    expect(missing.json.error.field).toBe('id');
  });
});

describe('a change point next to a declared change', () => {
  it('names the revision near it in the endpoint history; the dump manifest carries the revisions its rows name', async () => {
    const [sn] = await t.db
      .select({ id: endpoints.id })
      .from(endpoints)
      .where(and(eq(endpoints.slug, 'sambanova-llama-4-maverick')));
    const endpointId = sn!.id;
    const today = Math.floor(Date.now() / DAY) * DAY;
    const shiftDay = today - 6 * DAY;
    // 12 days of history: 400 tok/s, then 600 tok/s from the shift day (the measurements stored as history, then the move to new hardware is declared on that day)
    const rows = [];
    for (let d = 12; d >= 1; d--) {
      const dayStart = today - d * DAY;
      for (let k = 0; k < 6; k++)
        rows.push({
          ...probeRow(endpointId, new Date(dayStart + (k * 4 + 1) * 3600_000), (dayStart >= shiftDay ? 600 : 400) + k, `h:${d}:${k}`),
          disclosureRevisionId: null,
        });
    }
    await t.db.insert(measurements).values(rows);
    await t.db.update(endpoints).set({ hardware: 'SN40L-16 (new racks)' }).where(eq(endpoints.id, endpointId));
    const rev = await t.db.transaction((tx) =>
      recordDisclosure(tx, { endpointId, source: 'admin', userId: admin.userId, at: new Date(shiftDay + 2 * 3600_000) }),
    );
    expect(rev?.number).toBe(2);
    await rebuildRollups(t.db, { granularity: 'day', from: new Date(today - 14 * DAY), to: new Date(today + DAY) });

    const history = await getJson(`/api/v1/endpoints/${endpointId}/history?workload=prose-1k&granularity=day&window=30d`);
    expect(history.status).toBe(200);
    expect(history.json.changePoints).toHaveLength(1);
    const cp = history.json.changePoints[0];
    expect(cp.day).toBe(new Date(shiftDay).toISOString().slice(0, 10));
    expect(cp.revision).toEqual({ id: rev!.id, number: 2, effectiveFrom: new Date(shiftDay + 2 * 3600_000).toISOString(), changedFields: ['hardware'] });

    const other = await getJson(`/api/v1/endpoints/${endpointId}/revisions`);
    expect(other.json.items[0]).toMatchObject({ number: 2, source: 'admin', changedFields: ['hardware'], values: { hardware: 'SN40L-16 (new racks)' } });

    // The endpoint page's disclosure history: the change point links to the revision row near it.
    const revisions = await listDisclosureRevisions(t.db, [endpointId]);
    const html = renderToStaticMarkup(
      createElement(RevisionHistory, { revisions, changes: [{ changePoint: { ...cp, revision: undefined }, revision: revisions[0]! }] }),
    );
    expect(html).toContain(`data-change-point="${cp.day}" data-revision="2"`);
    expect(html).toContain('<a href="#revision-2">revision 2</a> (hardware changed');
    expect(html).toContain('id="revision-2" data-revision="2"');
    expect(html).toContain('Hardware: SN40L-16 (new racks)');

    const week = { fromAt: new Date(today - 7 * DAY), untilAt: new Date(today + DAY) };
    const { dump } = await writeDump(t.db, week);
    const manifest = dump.manifest as { disclosureRevisions: Array<{ id: number; endpointId: number }> };
    expect(manifest.disclosureRevisions.filter((r) => r.endpointId === endpointId).map((r) => r.id)).toContain(rev!.id);
  });
});
