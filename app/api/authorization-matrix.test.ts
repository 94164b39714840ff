/**
 * Authorisation matrix: anonymous, provider A (session), provider A (API token), provider B and
 * admin × every mutating route and private read. Every cell is asserted, each on a fresh fixture,
 * and a refused cell must leave the fixture unchanged. Private pages: e2e/provider-submission.spec.ts.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { annotations, apiTokens, disputes, endpoints, sweepSettings, sweeps } from '@/db/schema';
import type { TestDatabase } from '@/db/test-support/test-database';
import { startReferenceServer, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { anonymous, params, req, setupApiTest, signUp, signUpAdmin, type Actor } from './test-support/api-test';
import { sharedChatSubmission } from '@/app/api/test-support/chat-submission';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

let t: TestDatabase;
let ref: ReferenceServer;
const actors: Record<ActorName, Actor> = {} as Record<ActorName, Actor>;
type ActorName = 'anonymous' | 'providerA' | 'providerA-token' | 'providerB' | 'admin';
const ACTORS: ActorName[] = ['anonymous', 'providerA', 'providerA-token', 'providerB', 'admin'];

let list: typeof import('./v1/endpoints/route');
let one: typeof import('./v1/endpoints/[id]/route');
let review: typeof import('./v1/endpoints/[id]/review/route');
let tokens: typeof import('./v1/tokens/route');
let token: typeof import('./v1/tokens/[id]/route');
let mine: typeof import('./v1/submissions/route');
let sweepSettingsRoute: typeof import('./v1/endpoints/[id]/sweep-settings/route');
let sweepsRoute: typeof import('./v1/endpoints/[id]/sweeps/route');
let disputesRoute: typeof import('./v1/endpoints/[id]/disputes/route');
let resolutionRoute: typeof import('./v1/disputes/[id]/resolution/route');
let annotationsRoute: typeof import('./v1/annotations/route');

function submission(extra: Record<string, unknown> = {}) {
  return sharedChatSubmission(ref.url, { provider: 'Matrix Co', contact: 'm@matrix.example', ...extra });
}

/** A fresh endpoint of provider A in the given status. */
async function endpointOfA(status: 'pending' | 'active' = 'pending'): Promise<number> {
  const res = await list.POST(req(actors.providerA, 'POST', '/api/v1/endpoints', submission()));
  expect(res.status).toBe(201);
  const id = ((await res.json()) as { endpoint: { id: number } }).endpoint.id;
  if (status !== 'pending') await t.db.update(endpoints).set({ status }).where(eq(endpoints.id, id));
  return id;
}

async function endpointState(id: number) {
  const [row] = await t.db
    .select({ status: endpoints.status, hardware: endpoints.hardware, baseUrl: endpoints.baseUrl })
    .from(endpoints)
    .where(eq(endpoints.id, id));
  return row;
}

beforeAll(async () => {
  t = await setupApiTest({ TOKENPACE_MAX_PENDING_SUBMISSIONS: '500' });
  ref = await startReferenceServer({ port: 0, tps: 5000, ttftMs: 5, outputTokens: 16, tokensPerChunk: 4 });
  await t.sql`insert into models (slug, name) values ('tokenpace-reference', 'Tokenpace reference')`;
  list = await import('./v1/endpoints/route');
  one = await import('./v1/endpoints/[id]/route');
  review = await import('./v1/endpoints/[id]/review/route');
  tokens = await import('./v1/tokens/route');
  token = await import('./v1/tokens/[id]/route');
  mine = await import('./v1/submissions/route');
  sweepSettingsRoute = await import('./v1/endpoints/[id]/sweep-settings/route');
  sweepsRoute = await import('./v1/endpoints/[id]/sweeps/route');
  disputesRoute = await import('./v1/endpoints/[id]/disputes/route');
  resolutionRoute = await import('./v1/disputes/[id]/resolution/route');
  annotationsRoute = await import('./v1/annotations/route');
  (await import('./_lib/rate-limit')).configureRateLimits({
    submission: { points: 10_000, durationSeconds: 60 },
    tokenUse: { points: 10_000, durationSeconds: 60 },
    dispute: { points: 10_000, durationSeconds: 60 },
  });
  actors.anonymous = anonymous;
  actors.providerA = await signUp('matrix-a@a.example');
  actors.providerB = await signUp('matrix-b@b.example');
  actors.admin = await signUpAdmin(t.db, 'matrix-admin@tokenpace.example');
  const tk = await tokens.POST(req(actors.providerA, 'POST', '/api/v1/tokens', { name: 'matrix' }));
  actors['providerA-token'] = {
    ...actors.providerA,
    name: 'providerA-token',
    headers: { authorization: `Bearer ${((await tk.json()) as { token: string }).token}` },
  };
});

afterAll(async () => {
  await ref?.close();
  await t?.drop();
});

/** One row of the matrix: how to act, the expected status per actor, and what must hold afterwards. */
interface Row {
  name: string;
  /** Creates the fixture and performs the request as `actor`; returns the response and a check of the fixture. */
  act: (actor: Actor) => Promise<{ res: Response; after: (status: number) => Promise<void> }>;
  expect: Record<ActorName, number>;
}

const unchangedEndpoint = (id: number, before: Awaited<ReturnType<typeof endpointState>>) => async (status: number) => {
  if (status >= 400) expect(await endpointState(id)).toEqual(before);
};

const rows: Row[] = [
  {
    name: 'POST /api/v1/endpoints (submit)',
    act: async (actor) => {
      const before = await t.db.$count(endpoints);
      const res = await list.POST(req(actor, 'POST', '/api/v1/endpoints', submission()));
      return { res, after: async (s) => expect(await t.db.$count(endpoints)).toBe(s >= 400 ? before : before + 1) };
    },
    expect: { anonymous: 401, providerA: 201, 'providerA-token': 201, providerB: 201, admin: 201 },
  },
  {
    name: "PATCH /api/v1/endpoints/{A's} (edit metadata)",
    act: async (actor) => {
      const id = await endpointOfA('active');
      const before = await endpointState(id);
      const res = await one.PATCH(req(actor, 'PATCH', `/api/v1/endpoints/${id}`, { hardware: 'H200' }), params({ id: String(id) }));
      return { res, after: async (s) => (s < 400 ? expect((await endpointState(id))!.hardware).toBe('H200') : unchangedEndpoint(id, before)(s)) };
    },
    expect: { anonymous: 401, providerA: 200, 'providerA-token': 200, providerB: 404, admin: 403 },
  },
  {
    name: "PATCH /api/v1/endpoints/{A's} (change URL → re-review)",
    act: async (actor) => {
      const id = await endpointOfA('active');
      const before = await endpointState(id);
      const res = await one.PATCH(req(actor, 'PATCH', `/api/v1/endpoints/${id}`, { baseUrl: `${ref.url}/` }), params({ id: String(id) }));
      return { res, after: async (s) => (s < 400 ? expect((await endpointState(id))!.status).toBe('pending') : unchangedEndpoint(id, before)(s)) };
    },
    expect: { anonymous: 401, providerA: 200, 'providerA-token': 200, providerB: 404, admin: 403 },
  },
  {
    name: "PATCH /api/v1/endpoints/{A's} (pause)",
    act: async (actor) => {
      const id = await endpointOfA('active');
      const before = await endpointState(id);
      const res = await one.PATCH(req(actor, 'PATCH', `/api/v1/endpoints/${id}`, { status: 'paused' }), params({ id: String(id) }));
      return { res, after: async (s) => (s < 400 ? expect((await endpointState(id))!.status).toBe('paused') : unchangedEndpoint(id, before)(s)) };
    },
    expect: { anonymous: 401, providerA: 200, 'providerA-token': 200, providerB: 404, admin: 403 },
  },
  {
    name: "DELETE /api/v1/endpoints/{A's}",
    act: async (actor) => {
      const id = await endpointOfA('active');
      const before = await endpointState(id);
      const res = await one.DELETE(req(actor, 'DELETE', `/api/v1/endpoints/${id}`), params({ id: String(id) }));
      return { res, after: async (s) => (s < 400 ? expect((await endpointState(id))!.status).toBe('deleted') : unchangedEndpoint(id, before)(s)) };
    },
    expect: { anonymous: 401, providerA: 200, 'providerA-token': 200, providerB: 404, admin: 403 },
  },
  {
    name: "POST /api/v1/endpoints/{A's}/review (approve)",
    act: async (actor) => {
      const id = await endpointOfA('pending');
      const before = await endpointState(id);
      const res = await review.POST(req(actor, 'POST', `/api/v1/endpoints/${id}/review`, { decision: 'approve', revision: 1 }), params({ id: String(id) }));
      return { res, after: async (s) => (s < 400 ? expect((await endpointState(id))!.status).toBe('active') : unchangedEndpoint(id, before)(s)) };
    },
    expect: { anonymous: 401, providerA: 403, 'providerA-token': 403, providerB: 403, admin: 200 },
  },
  {
    name: "POST /api/v1/endpoints/{A's}/review (reject)",
    act: async (actor) => {
      const id = await endpointOfA('pending');
      const before = await endpointState(id);
      const res = await review.POST(
        req(actor, 'POST', `/api/v1/endpoints/${id}/review`, { decision: 'reject', reason: 'no', revision: 1 }),
        params({ id: String(id) }),
      );
      return { res, after: async (s) => (s < 400 ? expect((await endpointState(id))!.status).toBe('rejected') : unchangedEndpoint(id, before)(s)) };
    },
    expect: { anonymous: 401, providerA: 403, 'providerA-token': 403, providerB: 403, admin: 200 },
  },
  {
    name: 'POST /api/v1/tokens (create)',
    act: async (actor) => {
      const before = await t.db.$count(apiTokens);
      const res = await tokens.POST(req(actor, 'POST', '/api/v1/tokens', { name: 'cell' }));
      return { res, after: async (s) => expect(await t.db.$count(apiTokens)).toBe(s >= 400 ? before : before + 1) };
    },
    expect: { anonymous: 401, providerA: 201, 'providerA-token': 403, providerB: 201, admin: 201 },
  },
  {
    name: "DELETE /api/v1/tokens/{A's}",
    act: async (actor) => {
      const created = await tokens.POST(req(actors.providerA, 'POST', '/api/v1/tokens', { name: 'victim' }));
      const { id } = (await created.json()) as { id: number };
      const res = await token.DELETE(req(actor, 'DELETE', `/api/v1/tokens/${id}`), params({ id: String(id) }));
      return {
        res,
        after: async (s) => {
          const [row] = await t.db.select({ revokedAt: apiTokens.revokedAt }).from(apiTokens).where(eq(apiTokens.id, id));
          expect(row!.revokedAt === null).toBe(s >= 400);
        },
      };
    },
    expect: { anonymous: 401, providerA: 200, 'providerA-token': 200, providerB: 404, admin: 404 },
  },
  {
    name: 'GET /api/v1/submissions (own endpoints only)',
    act: async (actor) => {
      const id = await endpointOfA('pending');
      const res = await mine.GET(req(actor, 'GET', '/api/v1/submissions'));
      return {
        res,
        after: async (s) => {
          if (s !== 200) return;
          const items = ((await res.clone().json()) as { items: Array<{ id: number; ownerUserId: string }> }).items;
          expect(items.every((e) => e.ownerUserId === actor.userId)).toBe(true);
          expect(items.some((e) => e.id === id)).toBe(actor.userId === actors.providerA.userId);
        },
      };
    },
    expect: { anonymous: 401, providerA: 200, 'providerA-token': 200, providerB: 200, admin: 200 },
  },
  {
    name: 'GET /api/v1/tokens (own tokens only)',
    act: async (actor) => {
      const res = await tokens.GET(req(actor, 'GET', '/api/v1/tokens'));
      return {
        res,
        after: async (s) => {
          if (s !== 200) return;
          const items = ((await res.clone().json()) as { items: Array<{ name: string }> }).items;
          expect(items.some((x) => x.name === 'matrix')).toBe(actor.userId === actors.providerA.userId);
        },
      };
    },
    expect: { anonymous: 401, providerA: 200, 'providerA-token': 200, providerB: 200, admin: 200 },
  },
  {
    name: "GET /api/v1/endpoints/{A's pending} (public record: hidden until approved)",
    act: async (actor) => {
      const id = await endpointOfA('pending');
      const res = await one.GET(req(actor, 'GET', `/api/v1/endpoints/${id}`), params({ id: String(id) }));
      return { res, after: async () => {} };
    },
    expect: { anonymous: 404, providerA: 404, 'providerA-token': 404, providerB: 404, admin: 404 },
  },
  {
    name: "POST /api/v1/endpoints/{A's}/sweep-settings (consent to sweeps)",
    act: async (actor) => {
      const id = await endpointOfA('active');
      const res = await sweepSettingsRoute.POST(
        req(actor, 'POST', `/api/v1/endpoints/${id}/sweep-settings`, { enabled: true, maxConcurrency: 8, durationS: 5 }),
        params({ id: String(id) }),
      );
      return {
        res,
        after: async (s) => {
          const rows = await t.db.select({ enabled: sweepSettings.enabled }).from(sweepSettings).where(eq(sweepSettings.endpointId, id));
          expect(rows.map((r) => r.enabled)).toEqual(s >= 400 ? [] : [true]);
        },
      };
    },
    expect: { anonymous: 401, providerA: 200, 'providerA-token': 200, providerB: 404, admin: 200 },
  },
  {
    name: "POST /api/v1/endpoints/{A's}/sweeps (request a sweep, consent given)",
    act: async (actor) => {
      const id = await endpointOfA('active');
      const [ep] = await t.db.select({ baseUrl: endpoints.baseUrl }).from(endpoints).where(eq(endpoints.id, id));
      // the owner's request and an admin's consent to it (decision 160)
      await t.db.insert(sweepSettings).values({
        endpointId: id,
        enabled: true,
        maxConcurrency: 4,
        durationMs: 5000,
        approvedByUserId: 'admin',
        approvedAt: new Date(),
        approvedMaxConcurrency: 4,
        approvedDurationMs: 5000,
        approvedMaxLevels: 9,
        approvedBaseUrl: ep!.baseUrl,
      });
      const res = await sweepsRoute.POST(req(actor, 'POST', `/api/v1/endpoints/${id}/sweeps`, { concurrency: [1, 2] }), params({ id: String(id) }));
      return { res, after: async (s) => expect(await t.db.$count(sweeps, eq(sweeps.endpointId, id))).toBe(s >= 400 ? 0 : 1) };
    },
    expect: { anonymous: 401, providerA: 201, 'providerA-token': 201, providerB: 404, admin: 201 },
  },
  {
    name: "POST /api/v1/endpoints/{A's}/disputes (dispute a window: owner or admin)",
    act: async (actor) => {
      const id = await endpointOfA('active');
      const body = {
        scope: 'window',
        from: new Date(Date.now() - 7200_000).toISOString(),
        until: new Date(Date.now() - 3600_000).toISOString(),
        reason: 'matrix',
      };
      const res = await disputesRoute.POST(req(actor, 'POST', `/api/v1/endpoints/${id}/disputes`, body), params({ id: String(id) }));
      return { res, after: async (s) => expect(await t.db.$count(disputes, eq(disputes.endpointId, id))).toBe(s >= 400 ? 0 : 1) };
    },
    expect: { anonymous: 401, providerA: 201, 'providerA-token': 201, providerB: 404, admin: 201 },
  },
  {
    name: "POST /api/v1/disputes/{on A's}/resolution (decide: admins only)",
    act: async (actor) => {
      const id = await endpointOfA('active');
      const [d] = await t.db
        .insert(disputes)
        .values({ endpointId: id, scope: 'window', fromAt: new Date(Date.now() - 7200_000), untilAt: new Date(Date.now() - 3600_000), reason: 'matrix' })
        .returning({ id: disputes.id });
      const res = await resolutionRoute.POST(
        req(actor, 'POST', `/api/v1/disputes/${d!.id}/resolution`, { decision: 'accepted', exclude: true, note: 'matrix' }),
        params({ id: String(d!.id) }),
      );
      return {
        res,
        after: async (s) => {
          const [row] = await t.db.select({ status: disputes.status, exclude: disputes.exclude }).from(disputes).where(eq(disputes.id, d!.id));
          expect(row).toEqual(s >= 400 ? { status: 'open', exclude: false } : { status: 'accepted', exclude: true });
        },
      };
    },
    expect: { anonymous: 401, providerA: 403, 'providerA-token': 403, providerB: 403, admin: 200 },
  },
  {
    name: 'POST /api/v1/annotations (annotate a period: admins only)',
    act: async (actor) => {
      const text = `matrix ${actor.name} ${Math.random()}`;
      const res = await annotationsRoute.POST(
        req(actor, 'POST', '/api/v1/annotations', {
          from: new Date(Date.now() - 7200_000).toISOString(),
          until: new Date(Date.now() - 3600_000).toISOString(),
          text,
        }),
      );
      return { res, after: async (s) => expect(await t.db.$count(annotations, eq(annotations.text, text))).toBe(s >= 400 ? 0 : 1) };
    },
    expect: { anonymous: 401, providerA: 403, 'providerA-token': 403, providerB: 403, admin: 201 },
  },
];

describe.each(rows)('$name', (row) => {
  it.each(ACTORS)('as %s', async (name) => {
    const { res, after } = await row.act(actors[name]);
    const status = res.status;
    if (status >= 400) {
      const body = (await res.clone().json()) as { error: { code: string; message: string } };
      expect(typeof body.error.code).toBe('string');
      expect(typeof body.error.message).toBe('string');
    }
    expect(status).toBe(row.expect[name]);
    await after(status);
  });
});

it('covers every mutating route handler under app/api (a new one must join the matrix)', async () => {
  const { listApiRoutes, importRoute } = await import('./test-support/route-catalog');
  const mutating: string[] = [];
  for (const r of listApiRoutes()) {
    const mod = await importRoute(r.file);
    for (const m of ['POST', 'PATCH', 'PUT', 'DELETE']) if (typeof mod[m] === 'function') mutating.push(`${m} ${r.pattern}`);
  }
  expect(mutating.sort()).toEqual(
    [
      // Unknown /api/v1 routes, any method: always 404 JSON, never touch data (app/api/v1/errors.test.ts).
      'DELETE /api/v1/[...rest]',
      'PATCH /api/v1/[...rest]',
      'POST /api/v1/[...rest]',
      'PUT /api/v1/[...rest]',
      'DELETE /api/v1/endpoints/[id]',
      'DELETE /api/v1/tokens/[id]',
      'PATCH /api/v1/endpoints/[id]',
      'POST /api/auth/[...all]', // better-auth's own: sign-up/in/out, password reset (rate limited; tested in submission.test.ts)
      'POST /api/v1/endpoints',
      'POST /api/v1/endpoints/[id]/review',
      'POST /api/v1/tokens',
      'POST /api/v1/endpoints/[id]/sweep-settings',
      'POST /api/v1/endpoints/[id]/sweeps',
      'POST /api/v1/endpoints/[id]/disputes',
      'POST /api/v1/disputes/[id]/resolution',
      'POST /api/v1/annotations',
    ].sort(),
  );
});
