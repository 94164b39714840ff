/**
 * Issue 11: names that pose as another provider. Provider and proposed-model names are NFKC
 * normalised and refused with invisible characters or mixed-script look-alikes (400 naming the
 * field); a new all-Cyrillic name that reads like an existing provider is refused too. Route
 * handlers are called with real Request objects against a real Postgres and reference server.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { providers } from '@/db/schema';
import type { TestDatabase } from '@/db/test-support/test-database';
import { startReferenceServer, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { req, setupApiTest, signUp, type Actor } from '@/app/api/test-support/api-test';
import { sharedChatSubmission } from '@/app/api/test-support/chat-submission';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

let t: TestDatabase;
let ref: ReferenceServer;
let list: typeof import('./route');
let alice: Actor;

beforeAll(async () => {
  t = await setupApiTest({ TOKENPACE_MAX_PENDING_SUBMISSIONS: '50' });
  ref = await startReferenceServer({ port: 0, tps: 2000, ttftMs: 5, outputTokens: 16, tokensPerChunk: 2 });
  await t.sql`insert into providers (slug, name, kind) values ('groq', 'Groq', 'provider'), ('scale', 'Scale', 'provider')`;
  await t.sql`insert into models (slug, name) values ('tokenpace-reference', 'Tokenpace reference')`;
  list = await import('./route');
  alice = await signUp('alice@names.example');
});

afterAll(async () => {
  await ref?.close();
  await t?.drop();
});

function body(overrides: Record<string, unknown>) {
  return sharedChatSubmission(ref.url, { provider: 'Acme', contact: 'ops@acme.example', ...overrides });
}

async function submit(b: unknown) {
  const res = await list.POST(req(alice, 'POST', '/api/v1/endpoints', b));
  return { res, json: (await res.json()) as any };
}

describe('provider and model names', () => {
  it.each([
    ['G\u200broq', 'invisible'], // zero-width space
    ['Gr\u043eq', 'mixes'], // Cyrillic о
    ['\u00adGroq', 'invisible'], // soft hyphen
    ['Gro\u2060q', 'invisible'], // word joiner
    ['Groq\u202e', 'control'], // bidi override (already a control character)
  ])('refuses provider %j (%s)', async (provider) => {
    const before = await t.db.select({ id: providers.id }).from(providers);
    const { res, json } = await submit(body({ provider }));
    expect(res.status).toBe(400);
    expect(json.error.field).toBe('provider');
    expect(await t.db.select({ id: providers.id }).from(providers)).toHaveLength(before.length); // nothing created
  });

  it('refuses a proposed model name with look-alike letters', async () => {
    const { res, json } = await submit(body({ model: undefined, proposedModel: 'Llama\u200b 4' }));
    expect(res.status).toBe(400);
    expect(json.error.field).toBe('proposedModel');
  });

  it('an all-Cyrillic name reading like an existing provider is a look-alike', async () => {
    const { res, json } = await submit(body({ provider: '\u0405\u0441\u0430\u04cf\u0435' })); // Ѕсаӏе: reads "scale"
    expect(res.status).toBe(400);
    expect(json.error.field).toBe('provider');
    expect(json.error.message).toMatch(/looks like the existing provider "Scale"/);
  });

  it.each([
    ['Gr0q', 'a digit for a letter'],
    ['\u0262\u0280\u1d0f\u01eb', 'small capitals ɢʀᴏǫ'],
    ['G r o q', 'spaced'],
    ['GR0Q', 'upper case and a digit'],
    ['Gro\u01eb', 'q with ogonek'],
  ])('issue 19 #15: %j (%s) reads like the existing Groq: a look-alike, nothing created', async (provider) => {
    const before = await t.db.select({ id: providers.id }).from(providers);
    const { res, json } = await submit(body({ provider }));
    expect(res.status).toBe(400);
    expect(json.error.field).toBe('provider');
    expect(json.error.message).toContain('Groq');
    expect(await t.db.select({ id: providers.id }).from(providers)).toHaveLength(before.length);
  });

  it('normalises compatibility forms (fullwidth Ｇｒｏｑ is Groq, matched to the existing provider)', async () => {
    const { res, json } = await submit(body({ provider: '\uff27\uff52\uff4f\uff51' }));
    expect(res.status).toBe(201);
    expect(json.endpoint.provider).toBe('Groq');
    expect(json.endpoint.providerSlug).toBe('groq');
  });

  it('accepts ordinary names in one script, and names with no Latin letters get their own slug', async () => {
    const a = await submit(body({ provider: 'Café Inference' }));
    expect(a.res.status).toBe(201);
    const b = await submit(body({ provider: '東京 AI' }));
    expect(b.res.status).toBe(201);
    const c = await submit(body({ provider: 'Наука' }));
    const d = await submit(body({ provider: '北京' }));
    expect(c.res.status).toBe(201);
    expect(d.res.status).toBe(201);
    expect(c.json.endpoint.providerSlug).not.toBe(d.json.endpoint.providerSlug);
    expect(d.json.endpoint.provider).toBe('北京');
    const [row] = await t.db.select({ listed: providers.listed }).from(providers).where(eq(providers.slug, c.json.endpoint.providerSlug));
    expect(row!.listed).toBe(false);
  });
});
