/**
 * Claims beside their system (issue 10 item 4): the shipped 2025 file imports with a system per
 * claim; each claim lists the catalog endpoints that are its system; the chart rows put a claim
 * beside those endpoints only, and a claim about a system we do not measure stands apart.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rankingRows } from '@/app/_components/ranking-rows';
import type { LeaderboardAnswer } from '@/server/leaderboard';
import { ENDPOINT_TEMPLATES } from '@/lib/catalog/seed-catalog';
import { CLAIMS_FILE, FIXTURES_DIR } from '@/lib/datasets/paths';
import { importClaimsFile } from '../import/claims';
import { seedCatalog } from '../seed';
import { endpoints } from '../schema';
import { createTestDatabase, type TestDatabase } from '../test-support/test-database';
import { listClaims } from './claims';

const DGX = 'NVIDIA DGX B200 (8x B200), TensorRT-LLM, self-hosted';
let t: TestDatabase;
let ids: Record<string, number>;

beforeAll(async () => {
  t = await createTestDatabase();
  await seedCatalog(t.db, { workloads: [], lookupEnv: () => 'x', referencePort: null });
  ids = Object.fromEntries((await t.db.select({ id: endpoints.id, slug: endpoints.slug }).from(endpoints)).map((e) => [e.slug, e.id]));
  // an older database: claims imported from the May 2025 file (no system), then the shipped file
  await importClaimsFile(t.db, path.join(FIXTURES_DIR, 'claims', 'published-claims-2025-05.json'));
  await importClaimsFile(t.db, CLAIMS_FILE);
});
afterAll(async () => t?.drop());

/** A leaderboard answer with the given endpoints ranked (only the fields rankingRows reads). */
function answerOf(ranked: Array<{ id: number; slug: string; providerSlug: string; p50: number }>): LeaderboardAnswer {
  return {
    entries: ranked.map((e, i) => ({
      endpoint: { id: e.id, slug: e.slug, provider: e.providerSlug, providerSlug: e.providerSlug, hardware: null, speculativeDecoding: null },
      rank: i + 1,
      band: i + 1,
      tiedWith: [],
      outputTokensPerSecond: { p5: e.p50, p25: e.p50, p50: e.p50, p75: e.p50, p95: e.p50 },
    })),
  } as unknown as LeaderboardAnswer;
}

describe('claims beside their system', () => {
  it('imports the 2025 file over the older one: every claim has its system, Cerebras is a lower bound', async () => {
    const claims = await listClaims(t.db, { modelSlug: 'llama-4-maverick' });
    expect(claims).toHaveLength(17);
    expect(claims.every((c) => c.system)).toBe(true);
    const cerebras = claims.find((c) => c.provider === 'Cerebras')!;
    expect(cerebras).toMatchObject({ value: 2500, bound: 'gt', system: 'Cerebras Inference API', endpointIds: [] });
    expect(cerebras.sourceUrl).toMatch(/^https:\/\//);
  });

  it('lists the endpoints of the claim’s system only: the DGX B200 record is not the NIM API', async () => {
    const claims = await listClaims(t.db, { modelSlug: 'llama-4-maverick' });
    const record = claims.find((c) => c.system === DGX && c.metric === 'output_speed_tps_per_user')!;
    expect(record.value).toBe(1038);
    expect(record.endpointIds).toEqual([]);
    expect(claims.find((c) => c.system === 'SambaNova Cloud API')!.endpointIds).toEqual([ids['sambanova-llama-4-maverick']]);
  });

  it('draws a claim beside its system’s endpoint; claims about systems not ranked stand apart', async () => {
    const claims = (await listClaims(t.db, { modelSlug: 'llama-4-maverick' })).filter((c) => c.metric === 'output_speed_tps_per_user');
    const answer = answerOf([
      { id: ids['sambanova-llama-4-maverick']!, slug: 'sambanova-llama-4-maverick', providerSlug: 'sambanova', p50: 700 },
      { id: ids['nvidia-nim-llama-4-maverick']!, slug: 'nvidia-nim-llama-4-maverick', providerSlug: 'nvidia', p50: 200 },
    ]);
    const { rows, claimRows } = rankingRows(answer, claims);
    expect(rows.find((r) => r.key === 'nvidia-nim-llama-4-maverick')!.claims ?? []).toEqual([]);
    expect((rows.find((r) => r.key === 'sambanova-llama-4-maverick')!.claims ?? []).map((c) => c.value)).toEqual([792]);
    const apart = claimRows.flatMap((r) => (r.claims ?? []).map((c) => c.value));
    expect(apart).toContain(1038);
    expect(apart).toContain(2500);
    expect(apart).not.toContain(792);
  });

  it('an owner who submits the DGX B200 template gets the record drawn beside the new endpoint', async () => {
    const tpl = ENDPOINT_TEMPLATES.find((x) => x.system === DGX)!;
    expect(tpl).toMatchObject({ protocol: 'openai-chat', deploymentKind: 'self-hosted', engine: expect.stringContaining('trtllm-serve') });
    const [nvidia] = await t.db.select({ providerId: endpoints.providerId, modelId: endpoints.modelId }).from(endpoints).limit(1);
    const [inserted] = await t.db
      .insert(endpoints)
      .values({
        slug: 'owner-dgx-b200',
        providerId: nvidia!.providerId,
        modelId: nvidia!.modelId,
        protocol: tpl.protocol,
        baseUrl: 'https://dgx.example.org/v1',
        apiModelId: tpl.apiModelId,
        hardware: tpl.hardware,
        engine: tpl.engine,
        deploymentKind: tpl.deploymentKind,
        system: tpl.system,
        status: 'active',
      })
      .returning({ id: endpoints.id });
    const id = inserted!.id;
    const claims = (await listClaims(t.db, { modelSlug: 'llama-4-maverick' })).filter((c) => c.metric === 'output_speed_tps_per_user');
    expect(claims.find((c) => c.system === DGX)!.endpointIds).toEqual([id]);
    const { rows, claimRows } = rankingRows(answerOf([{ id: id!, slug: 'owner-dgx-b200', providerSlug: 'nvidia', p50: 900 }]), claims);
    expect((rows[0]!.claims ?? []).map((c) => c.value)).toEqual([1038]);
    expect(claimRows.flatMap((r) => (r.claims ?? []).map((c) => c.value))).not.toContain(1038);
  });
});
