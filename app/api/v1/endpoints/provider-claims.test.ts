/**
 * Issue 19 finding 3 (decision 162): naming an existing provider is a claim that needs proof.
 * Real Postgres, real sessions, the real submission and review routes, a local reference server
 * for the verification probe. A provider "Acme Cloud" (website https://www.acme-cloud.example) is
 * listed; accounts submit endpoints as it:
 * - unverified ops@acme-cloud.example → `unverified`: the queue says so, approval without
 *   `linkProvider` is refused (409 naming it), with it the admin's link is recorded;
 * - verified ops@acme-cloud.example and ops@eu.acme-cloud.example → `verified_domain`, approved as usual;
 * - verified ops@evilacme-cloud.example, ops@acme-cloud.example.evil.example → `unverified`.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, endpointSubmissions, providers, users } from '@/db/schema';
import type { TestDatabase } from '@/db/test-support/test-database';
import { startReferenceServer, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { judgeProviderClaim } from '@/lib/security/provider-claim';
import { params, req, setupApiTest, signUp, signUpAdmin, type Actor } from '@/app/api/test-support/api-test';
import { sharedChatSubmission } from '@/app/api/test-support/chat-submission';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

let t: TestDatabase;
let ref: ReferenceServer;
let admin: Actor;
let routes: { list: typeof import('./route'); review: typeof import('./[id]/review/route') };
let listReviewQueue: typeof import('@/db/queries/submissions').listReviewQueue;

beforeAll(async () => {
  t = await setupApiTest({ TOKENPACE_MAX_PENDING_SUBMISSIONS: '5' });
  ref = await startReferenceServer({ port: 0, tps: 2000, ttftMs: 5, outputTokens: 16 });
  await t.sql`insert into providers (slug, name, kind, website_url) values ('acme-cloud', 'Acme Cloud', 'provider', 'https://www.acme-cloud.example/')`;
  await t.sql`insert into models (slug, name) values ('tokenpace-reference', 'Tokenpace reference')`;
  routes = { list: await import('./route'), review: await import('./[id]/review/route') };
  ({ listReviewQueue } = await import('@/db/queries/submissions'));
  admin = await signUpAdmin(t.db, 'admin-claims@tokenpace.example');
}, 120_000);

afterAll(async () => {
  await ref?.close();
  await t?.drop();
});

async function submitAs(email: string, verified: boolean): Promise<{ id: number; revision: number }> {
  const actor = await signUp(email);
  if (verified) await t.db.update(users).set({ emailVerified: true }).where(eq(users.id, actor.userId!));
  const res = await routes.list.POST(req(actor, 'POST', '/api/v1/endpoints', sharedChatSubmission(ref.url, { provider: 'Acme Cloud', contact: email })));
  const json = (await res.json()) as { endpoint: { id: number; revision: number } };
  expect(res.status).toBe(201);
  return json.endpoint;
}
const claimOf = async (id: number) =>
  (await t.db.select({ c: endpointSubmissions.providerClaim }).from(endpointSubmissions).where(eq(endpointSubmissions.endpointId, id)))[0]!.c;
const review = async (e: { id: number; revision: number }, body: Record<string, unknown>) => {
  const res = await routes.review.POST(
    req(admin, 'POST', `/api/v1/endpoints/${e.id}/review`, { decision: 'approve', revision: e.revision, ...body }),
    params({ id: String(e.id) }),
  );
  return { res, json: (await res.json()) as any };
};

describe('a claim to an existing provider needs proof', () => {
  it('judges the domain label-wise', () => {
    const site = 'https://www.acme-cloud.example/';
    expect(judgeProviderClaim({ email: 'ops@acme-cloud.example', emailVerified: true, websiteUrl: site })).toBe('verified_domain');
    expect(judgeProviderClaim({ email: 'ops@EU.Acme-Cloud.example', emailVerified: true, websiteUrl: site })).toBe('verified_domain');
    expect(judgeProviderClaim({ email: 'ops@acme-cloud.example', emailVerified: false, websiteUrl: site })).toBe('unverified');
    expect(judgeProviderClaim({ email: 'ops@evilacme-cloud.example', emailVerified: true, websiteUrl: site })).toBe('unverified');
    expect(judgeProviderClaim({ email: 'ops@acme-cloud.example.evil.example', emailVerified: true, websiteUrl: site })).toBe('unverified');
    expect(judgeProviderClaim({ email: 'ops@acme-cloud.example', emailVerified: true, websiteUrl: null })).toBe('unverified');
  });

  it(
    'an unverified address at the provider’s domain: marked unverified in the queue; approval needs the admin’s explicit link, which is recorded',
    { timeout: 60_000 },
    async () => {
      const e = await submitAs('ops@acme-cloud.example', false);
      expect(await claimOf(e.id)).toBe('unverified');
      const queued = (await listReviewQueue(t.db)).find((q) => q.id === e.id)!;
      expect(queued).toMatchObject({ providerClaim: 'unverified', ownerEmailVerified: false, provider: 'Acme Cloud' });
      const refused = await review(e, {});
      expect(refused.res.status).toBe(409);
      expect(refused.json.error.field).toBe('linkProvider');
      expect(refused.json.error.message).toMatch(/not proven/);
      const linked = await review(e, { linkProvider: true });
      expect(linked.res.status).toBe(200);
      expect(linked.json.endpoint).toMatchObject({ status: 'active', providerClaim: 'admin_linked' });
      const [audit] = await t.db
        .select({ details: auditEvents.details })
        .from(auditEvents)
        .where(and(eq(auditEvents.endpointId, e.id), eq(auditEvents.action, 'endpoint.approve')));
      expect(audit!.details).toMatchObject({ providerClaim: 'admin_linked' });
    },
  );

  it('verified addresses at the domain (and a subdomain) are verified claims; look-alike domains are not', { timeout: 60_000 }, async () => {
    for (const email of ['ops2@acme-cloud.example', 'ops@eu.acme-cloud.example']) {
      const e = await submitAs(email, true);
      expect(await claimOf(e.id), email).toBe('verified_domain');
      expect((await review(e, {})).res.status, email).toBe(200);
    }
    for (const email of ['ops@evilacme-cloud.example', 'ops@acme-cloud.example.evil.example']) {
      const e = await submitAs(email, true);
      expect(await claimOf(e.id), email).toBe('unverified');
      expect((await review(e, {})).res.status, email).toBe(409);
    }
    // the claims never moved the provider's own record
    const [p] = await t.db.select({ name: providers.name, websiteUrl: providers.websiteUrl }).from(providers).where(eq(providers.slug, 'acme-cloud'));
    expect(p).toEqual({ name: 'Acme Cloud', websiteUrl: 'https://www.acme-cloud.example/' });
  });
});
