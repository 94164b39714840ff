/**
 * Disputes round trip (decision 232), route handlers with real Request objects and real Postgres:
 * an owner disputes a window of its endpoint, an admin accepts it with exclusion; the board, the
 * measurements API, the dispute list (JSON and CSV) and the annotations all reflect it, while the
 * measurements themselves are unchanged. Bounds and rights: other accounts get 404, bad bodies a 400
 * naming the field, open disputes per endpoint are capped even under parallel requests.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, gte, lt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, endpoints, measurements } from '@/db/schema';
import type { TestDatabase } from '@/db/test-support/test-database';
import { MAX_OPEN_DISPUTES_PER_ENDPOINT } from '@/db/queries/disputes';
import { anonymous, params, req, signUp, signUpAdmin, type Actor } from '@/app/api/test-support/api-test';
import { seedApiData } from '../test-support/seed-api-data';
import { writeDump } from '@/workers/tasks/write-dump';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

const NOW = Date.now();
const FROM = new Date(NOW - 10 * 3600_000);
const UNTIL = new Date(NOW - 4 * 3600_000);
let t: TestDatabase;
let groq: number;
let other: number;
let owner: Actor;
let stranger: Actor;
let admin: Actor;
let prose: number;

const BOARD = '/api/v1/leaderboard?model=llama-4-maverick&workload=prose-1k&window=24h';
type Entry = {
  endpoint: { id: number };
  samples: number;
  excluded: { total: number; byReason: Record<string, number> };
  outputTokensPerSecond: { p50: number } | null;
};

async function json(res: Promise<Response> | Response): Promise<{ status: number; body: any }> {
  const r = await res;
  return { status: r.status, body: await r.json() };
}

async function board(): Promise<Entry> {
  const { GET } = await import('../leaderboard/route');
  const answer = (await json(GET(req(anonymous, 'GET', BOARD)))).body as { entries: Entry[] };
  return answer.entries.find((e) => e.endpoint.id === groq)!;
}

const open = async (actor: Actor, id: number, body: unknown) =>
  json((await import('../endpoints/[id]/disputes/route')).POST(req(actor, 'POST', `/api/v1/endpoints/${id}/disputes`, body), params({ id: String(id) })));
const resolve = async (actor: Actor, id: number, body: unknown) =>
  json((await import('./[id]/resolution/route')).POST(req(actor, 'POST', `/api/v1/disputes/${id}/resolution`, body), params({ id: String(id) })));

beforeAll(async () => {
  process.env.TOKENPACE_SECRET_KEY = randomBytes(32).toString('hex');
  process.env.TOKENPACE_ALLOW_PRIVATE = '1';
  process.env.PORT = '3000';
  const seeded = await seedApiData({ now: NOW, days: 2 });
  t = seeded.t;
  [groq, , other] = seeded.endpointIds as [number, number, number];
  prose = seeded.workloadIds['prose-1k']!;
  // this file opens more than an hour's worth of disputes for one account; the limit has its own test below
  (await import('@/app/api/_lib/rate-limit')).configureRateLimits({ dispute: { points: 1000, durationSeconds: 3600 } });
  owner = await signUp(`owner-${NOW}@dispute.example`);
  stranger = await signUp(`stranger-${NOW}@dispute.example`);
  admin = await signUpAdmin(t.db, `admin-${NOW}@dispute.example`);
  await t.db.update(endpoints).set({ ownerUserId: owner.userId }).where(eq(endpoints.id, groq));
}, 180_000);

afterAll(async () => {
  await t?.drop();
});

describe('a dispute round trip', () => {
  it('owner opens, admin accepts with exclusion: the board leaves exactly the covered rows out, the rows stay as they were', async () => {
    const before = await board();
    const covered = await t.db
      .select({ id: measurements.id, rankable: measurements.rankable })
      .from(measurements)
      .where(
        and(eq(measurements.endpointId, groq), eq(measurements.workloadId, prose), gte(measurements.measuredAt, FROM), lt(measurements.measuredAt, UNTIL)),
      );
    const coveredRankable = covered.filter((m) => m.rankable).length;
    expect(coveredRankable).toBeGreaterThan(5);

    const opened = await open(owner, groq, {
      scope: 'window',
      from: FROM.toISOString(),
      until: UNTIL.toISOString(),
      reason: 'Our status page shows a regional outage',
      links: ['https://status.example/incidents/1'],
    });
    expect(opened.status).toBe(201);
    expect(opened.body.dispute).toMatchObject({ status: 'open', excluded: false, scope: 'window', endpointId: groq });
    // open: public at once, nothing excluded yet
    const { GET: list } = await import('./route');
    expect((await json(list(req(anonymous, 'GET', `/api/v1/disputes?endpoint=${groq}`)))).body.items.map((d: { id: number }) => d.id)).toEqual([
      opened.body.dispute.id,
    ]);
    expect((await board()).samples).toBe(before.samples);

    // only an admin decides
    expect((await resolve(owner, opened.body.dispute.id, { decision: 'accepted', exclude: true, note: 'x' })).status).toBe(403);
    const accepted = await resolve(admin, opened.body.dispute.id, { decision: 'accepted', exclude: true, note: 'Confirmed by our own worker logs' });
    expect(accepted.status).toBe(200);
    expect(accepted.body.dispute).toMatchObject({ status: 'accepted', excluded: true, resolution: 'Confirmed by our own worker logs' });
    expect((await resolve(admin, opened.body.dispute.id, { decision: 'rejected', note: 'again' })).status).toBe(409);

    // the board: exactly the covered rankable rows left out, counted under `disputed`
    let after = await board();
    for (let i = 0; i < 50 && after.samples === before.samples; i++) {
      await new Promise((r) => setTimeout(r, 200));
      after = await board();
    }
    expect(after.samples).toBe(before.samples - coveredRankable);
    expect(after.excluded.byReason.disputed).toBe(coveredRankable);
    expect(after.excluded.total).toBe(before.excluded.total + coveredRankable);

    // the rows themselves are unchanged; the API says what the figures used
    const stored = await t.db
      .select({ rankable: measurements.rankable })
      .from(measurements)
      .where(eq(measurements.id, covered.find((m) => m.rankable)!.id));
    expect(stored[0]!.rankable).toBe(true);
    const { GET: listMeasurements } = await import('../endpoints/[id]/measurements/route');
    const page = (
      await json(
        listMeasurements(
          req(
            anonymous,
            'GET',
            `/api/v1/endpoints/${groq}/measurements?workload=prose-1k&since=${FROM.toISOString()}&until=${new Date(UNTIL.getTime() - 1).toISOString()}&limit=500`,
          ),
          params({ id: String(groq) }),
        ),
      )
    ).body as { items: Array<{ rankable: boolean; notRankableReasons: string[] }> };
    expect(page.items).toHaveLength(covered.length);
    expect(page.items.filter((m) => m.notRankableReasons.includes('disputed'))).toHaveLength(coveredRankable);
    expect(page.items.every((m) => !m.rankable)).toBe(true);

    // public: the list (JSON, CSV), the annotation, the audit log
    const listed = (await json(list(req(anonymous, 'GET', `/api/v1/disputes?status=accepted`)))).body.items;
    expect(listed).toHaveLength(1);
    const { GET: csv } = await import('../disputes.csv/route');
    const text = await (await csv(req(anonymous, 'GET', '/api/v1/disputes.csv'))).text();
    expect(text.split('\r\n')[0]).toContain('status');
    expect(text).toContain('Confirmed by our own worker logs');
    const { GET: notes } = await import('../annotations/route');
    const annotated = (await json(notes(req(anonymous, 'GET', `/api/v1/annotations?endpoint=${groq}`)))).body.items;
    expect(annotated).toHaveLength(1);
    expect(annotated[0]).toMatchObject({ endpointId: groq, from: FROM.toISOString(), until: UNTIL.toISOString(), disputeId: opened.body.dispute.id });
    const audit = await t.db.select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.endpointId, groq));
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['dispute.open', 'dispute.accept']));
    // a dump of the period carries the dispute and its annotation in its manifest, and the row as excluded
    const { dump } = await writeDump(t.db, { fromAt: new Date(FROM.getTime() - 3600_000), untilAt: new Date(UNTIL.getTime() + 3600_000) });
    const manifest = dump.manifest as { disputes: Array<{ id: number; status: string; excluded: boolean }>; annotations: Array<{ disputeId: number | null }> };
    expect(manifest.disputes).toEqual([expect.objectContaining({ id: opened.body.dispute.id, status: 'accepted', excluded: true })]);
    expect(manifest.annotations.map((a) => a.disputeId)).toEqual([opened.body.dispute.id]);
    // another endpoint's figures are untouched
    const { GET } = await import('../leaderboard/route');
    const otherEntry = ((await json(GET(req(anonymous, 'GET', BOARD)))).body as { entries: Entry[] }).entries.find((e) => e.endpoint.id === other)!;
    expect(otherEntry.excluded.byReason.disputed).toBeUndefined();
  });

  it('an admin annotates a period of every endpoint; it shows beside each endpoint’s own', async () => {
    const { POST, GET } = await import('../annotations/route');
    expect((await json(POST(req(owner, 'POST', '/api/v1/annotations', { from: FROM.toISOString(), until: UNTIL.toISOString(), text: 'x' })))).status).toBe(403);
    const made = await json(
      POST(
        req(admin, 'POST', '/api/v1/annotations', {
          workerRegion: 'local',
          from: new Date(NOW - 3600_000).toISOString(),
          until: new Date(NOW - 1800_000).toISOString(),
          text: 'Our local worker lost its network',
        }),
      ),
    );
    expect(made.status).toBe(201);
    const items = (await json(GET(req(anonymous, 'GET', `/api/v1/annotations?endpoint=${other}`)))).body.items as Array<{
      endpointId: number | null;
      text: string;
    }>;
    expect(items.map((a) => a.text)).toEqual(['Our local worker lost its network']);
    const bad = await json(POST(req(admin, 'POST', '/api/v1/annotations', { from: UNTIL.toISOString(), until: FROM.toISOString(), text: 'backwards' })));
    expect(bad).toMatchObject({ status: 400, body: { error: { field: 'until' } } });
  });
});

describe('who may dispute, and how much', () => {
  it('another account or an anonymous visitor cannot dispute the endpoint', async () => {
    expect((await open(stranger, groq, { scope: 'window', from: FROM.toISOString(), until: UNTIL.toISOString(), reason: 'not mine' })).status).toBe(404);
    expect((await open(anonymous, groq, { scope: 'window', from: FROM.toISOString(), until: UNTIL.toISOString(), reason: 'nobody' })).status).toBe(401);
  });

  it('bad bodies are 400 naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ scope: 'window', until: UNTIL.toISOString(), reason: 'r' }, 'from'],
      [{ scope: 'window', from: FROM.toISOString(), until: new Date(FROM.getTime() + 32 * 86_400_000).toISOString(), reason: 'r' }, 'until'],
      [{ scope: 'measurement', reason: 'r' }, 'measurementId'],
      [{ scope: 'window', from: FROM.toISOString(), until: UNTIL.toISOString(), reason: '' }, 'reason'],
      [{ scope: 'window', from: FROM.toISOString(), until: UNTIL.toISOString(), reason: 'r', links: ['javascript:alert(1)'] }, 'links.0'],
      [{ scope: 'everything', reason: 'r' }, 'scope'],
      [{ scope: 'window', from: FROM.toISOString(), until: UNTIL.toISOString(), reason: 'r\u202e' }, 'reason'],
    ];
    for (const [body, field] of cases) {
      const r = await open(owner, groq, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.field).toBe(field);
    }
    // a measurement of another endpoint is not this endpoint's
    const [m] = await t.db.select({ id: measurements.id }).from(measurements).where(eq(measurements.endpointId, other)).limit(1);
    expect(await open(owner, groq, { scope: 'measurement', measurementId: m!.id, reason: 'r' })).toMatchObject({
      status: 404,
      body: { error: { field: 'measurementId' } },
    });
  });

  it(`at most ${MAX_OPEN_DISPUTES_PER_ENDPOINT} open disputes per endpoint, also under 12 parallel requests`, async () => {
    const [m] = await t.db.select({ id: measurements.id }).from(measurements).where(eq(measurements.endpointId, groq)).limit(1);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => open(owner, groq, { scope: 'measurement', measurementId: m!.id, reason: `parallel ${i}` })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(MAX_OPEN_DISPUTES_PER_ENDPOINT);
    expect(results.filter((r) => r.status === 409)).toHaveLength(12 - MAX_OPEN_DISPUTES_PER_ENDPOINT);
    // a decision frees a slot: exactly one more may be opened
    const anyOpen = results.find((r) => r.status === 201)!.body.dispute.id as number;
    expect((await resolve(admin, anyOpen, { decision: 'rejected', note: 'no evidence' })).status).toBe(200);
    expect((await open(owner, groq, { scope: 'measurement', measurementId: m!.id, reason: 'again' })).status).toBe(201);
    expect((await open(owner, groq, { scope: 'measurement', measurementId: m!.id, reason: 'one too many' })).status).toBe(409);
  });

  it('the per-account rate limit refuses a flood of attempts (429 with Retry-After)', async () => {
    (await import('@/app/api/_lib/rate-limit')).configureRateLimits({ dispute: { points: 3, durationSeconds: 3600 } });
    const flooder = await signUp(`flood-${NOW}@dispute.example`);
    await t.db.update(endpoints).set({ ownerUserId: flooder.userId }).where(eq(endpoints.id, other));
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await open(flooder, other, { scope: 'window', from: FROM.toISOString(), until: UNTIL.toISOString(), reason: `flood ${i}` })).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
  });
});
