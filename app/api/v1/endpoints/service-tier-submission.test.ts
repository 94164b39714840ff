/**
 * A submitted endpoint declares its service tier and the provider's published objective (decision
 * 262), against a real Postgres and a local reference server that records the tier each request
 * asked for: bad declarations answer 400 naming the field; a good one is stored, returned, sent by
 * the verification probe; changing the tier re-verifies and goes back to review; PATCH onto a
 * protocol the tier is not documented for is refused naming `serviceTier.value`.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { endpoints } from '@/db/schema';
import type { TestDatabase } from '@/db/test-support/test-database';
import { startReferenceServer, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { params, req, setupApiTest, signUp, type Actor } from '@/app/api/test-support/api-test';
import { sharedChatSubmission } from '@/app/api/test-support/chat-submission';

// Route handlers call next/server's connection(), which needs Next's request scope.
vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

let t: TestDatabase;
let ref: ReferenceServer;
let routes: { list: typeof import('./route'); one: typeof import('./[id]/route') };
let alice: Actor;

const OBJECTIVE = { share: 0.99, minOutputTokensPerSecond: 50, sourceUrl: 'https://openai.com/api-priority-processing/' };

function body(overrides: Record<string, unknown> = {}) {
  return sharedChatSubmission(ref.url, { provider: 'Tier Inference', apiKey: 'sk-test-tier-0123456789abcdef', contact: 'ops@tier.example', ...overrides });
}

beforeAll(async () => {
  t = await setupApiTest({ TOKENPACE_MAX_PENDING_SUBMISSIONS: '5' });
  ref = await startReferenceServer({ port: 0, tps: 2000, ttftMs: 20, outputTokens: 32, recordWrites: true, serviceTiers: { priority: { tps: 2000 } } });
  await t.sql`insert into providers (slug, name, kind) values ('tokenpace', 'Tokenpace', 'calibration')`;
  await t.sql`insert into models (slug, name) values ('tokenpace-reference', 'Tokenpace reference')`;
  routes = { list: await import('./route'), one: await import('./[id]/route') };
  alice = await signUp('alice@tier.example');
});

afterAll(async () => {
  await ref?.close();
  await t?.drop();
});

async function submit(b: unknown) {
  const res = await routes.list.POST(req(alice, 'POST', '/api/v1/endpoints', b));
  return { res, json: (await res.json()) as any };
}

describe('service tier on the submission paths', () => {
  it('answers 400 naming the offending tier and objective fields', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ serviceTier: { parameter: 'tier', value: 'priority' } }, 'serviceTier.parameter'],
      [{ serviceTier: { parameter: 'service_tier', value: 'fast' } }, 'serviceTier.value'],
      [{ serviceTier: { parameter: 'speed', value: 'fast' } }, 'serviceTier.value'],
      [{ serviceTier: { parameter: 'service_tier', value: 'priority', extra: 1 } }, 'serviceTier.extra'],
      [{ tierObjective: { ...OBJECTIVE, share: 0 } }, 'tierObjective.share'],
      [{ tierObjective: { ...OBJECTIVE, share: 1.01 } }, 'tierObjective.share'],
      [{ tierObjective: { ...OBJECTIVE, minOutputTokensPerSecond: -1 } }, 'tierObjective.minOutputTokensPerSecond'],
      [{ tierObjective: { share: 0.99, sourceUrl: OBJECTIVE.sourceUrl } }, 'tierObjective.minOutputTokensPerSecond'],
      [{ tierObjective: { ...OBJECTIVE, sourceUrl: 'ftp://x.example/sla' } }, 'tierObjective.sourceUrl'],
      [{ tierObjective: { share: 0.99, minOutputTokensPerSecond: 50 } }, 'tierObjective.sourceUrl'],
    ];
    for (const [over, field] of cases) {
      const { res, json } = await submit(body(over));
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(json.error.code).toBe('bad_request');
      expect(
        (json.error.fields as Array<{ field: string }>).map((f) => f.field),
        JSON.stringify(over),
      ).toContain(field);
    }
    expect(await t.db.select({ id: endpoints.id }).from(endpoints)).toHaveLength(0);
  });

  it('stores, returns and sends the declared tier; a tier change re-verifies; a protocol it does not fit is refused', async () => {
    ref.clearWriteLog();
    const { res, json } = await submit(body({ serviceTier: { parameter: 'service_tier', value: 'priority' }, tierObjective: OBJECTIVE }));
    expect(res.status).toBe(201);
    expect(json.endpoint.serviceTier).toEqual({ parameter: 'service_tier', value: 'priority' });
    expect(json.endpoint.tierObjective).toEqual({ ...OBJECTIVE, maxTtftMs: null });
    expect(json.verification.outcome).toBe('success');
    // the verification probe asked for the tier
    expect(ref.writeLog().map((r) => r.serviceTier)).toEqual(['priority']);
    const id = String(json.endpoint.id);

    // switching to flex changes what is probed: verified again (with the new tier), back to review
    const flex = await routes.one.PATCH(
      req(alice, 'PATCH', `/api/v1/endpoints/${id}`, { serviceTier: { parameter: 'service_tier', value: 'flex' } }),
      params({ id }),
    );
    expect(flex.status).toBe(200);
    const flexJson = (await flex.json()) as any;
    expect(flexJson.endpoint.serviceTier).toEqual({ parameter: 'service_tier', value: 'flex' });
    expect(flexJson.verification.outcome).toBe('success');
    expect(ref.writeLog().map((r) => r.serviceTier)).toEqual(['priority', 'flex']);

    // the stored tier does not exist on Anthropic Messages: a protocol change alone is refused, naming the field
    const proto = await routes.one.PATCH(req(alice, 'PATCH', `/api/v1/endpoints/${id}`, { protocol: 'anthropic-messages' }), params({ id }));
    expect(proto.status).toBe(400);
    const protoJson = (await proto.json()) as any;
    expect(protoJson.error.field).toBe('serviceTier.value');
    expect(protoJson.error.message).toContain('service_tier on anthropic-messages takes one of auto, standard_only');

    // removing both
    const cleared = await routes.one.PATCH(req(alice, 'PATCH', `/api/v1/endpoints/${id}`, { serviceTier: null, tierObjective: null }), params({ id }));
    expect(cleared.status).toBe(200);
    const [row] = await t.db
      .select({ tier: endpoints.serviceTier, objective: endpoints.tierObjective })
      .from(endpoints)
      .where(eq(endpoints.id, Number(id)));
    expect(row).toEqual({ tier: null, objective: null });
  });
});
