import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '@/lib/datasets/paths';
import { seedCatalog } from '../seed';
import { claims, datasetRows, datasetSeries, datasets, providers } from '../schema';
import { createTestDatabase, type TestDatabase } from '../test-support/test-database';
import { getDatasetWithSeries } from '../queries/datasets';
import { listClaims } from '../queries/claims';
import { importClaimsFile } from './claims';
import { LLMPERF_DATASET_SLUG, importLlmperfDir } from './llmperf';

let t: TestDatabase;
const llmperfDir = path.join(FIXTURES_DIR, 'llmperf', 'individual');
const claimsFile = path.join(FIXTURES_DIR, 'claims', 'published-claims-2025-05.json');

beforeAll(async () => {
  t = await createTestDatabase();
  await seedCatalog(t.db, { workloads: [], lookupEnv: () => null, referencePort: null });
});
afterAll(async () => t?.drop());

describe('import llmperf', () => {
  it('imports every individual file as one dataset with provenance, rows and summaries', async () => {
    const r = await importLlmperfDir(t.db, llmperfDir);
    const files = fs.readdirSync(llmperfDir).filter((f) => f.endsWith('.json'));
    expect(r.series).toBe(files.length);
    const found = await getDatasetWithSeries(t.db, LLMPERF_DATASET_SLUG);
    expect(found!.dataset.licence).toBe('Apache-2.0');
    expect(found!.dataset.sourceCommit).toBe('27aa9b6a6c4282f6d5599b9199fbb57256a2dcd8');
    const groq = found!.series.find((s) => s.slug === 'groq_70b')!;
    const raw = JSON.parse(fs.readFileSync(path.join(llmperfDir, 'groq_70b.json'), 'utf8')) as Array<Record<string, number | null>>;
    expect(groq.summary.requests).toBe(raw.length);
    // Output speed excludes TTFT: (tokens − 1) / (e2e − ttft), per request; check the first one.
    const rows = await t.db
      .select()
      .from(datasetRows)
      .innerJoin(datasetSeries, eq(datasetSeries.id, datasetRows.seriesId))
      .where(eq(datasetSeries.slug, 'groq_70b'));
    const first = rows.find((x) => x.dataset_rows.rowIndex === 0)!.dataset_rows;
    const r0 = raw[0]!;
    expect(first.ttftMs).toBeCloseTo(r0.ttft_s! * 1000, 9);
    expect(first.outputTokensPerSecond).toBeCloseTo((r0.number_output_tokens! - 1) / (r0.end_to_end_latency_s! - r0.ttft_s!), 9);
    expect(first.llmperfThroughputTokensPerSecond).toBeCloseTo(r0.request_output_throughput_token_per_s!, 9);
    expect(first.outputTokensPerSecond!).toBeGreaterThan(first.llmperfThroughputTokensPerSecond!);
  });

  it('is safe to re-run (same counts, no duplicates)', async () => {
    const before = (await t.db.select({ n: count() }).from(datasetRows))[0]!.n;
    await importLlmperfDir(t.db, llmperfDir);
    expect((await t.db.select({ n: count() }).from(datasetRows))[0]!.n).toBe(before);
    expect((await t.db.select({ n: count() }).from(datasets))[0]!.n).toBe(1);
  });

  it('rejects a malformed file naming file and field, writing nothing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llmperf-bad-'));
    fs.copyFileSync(path.join(llmperfDir, 'groq_70b.json'), path.join(dir, 'groq_70b.json'));
    const good = JSON.parse(fs.readFileSync(path.join(llmperfDir, 'groq_70b.json'), 'utf8')) as Array<Record<string, unknown>>;
    fs.writeFileSync(path.join(dir, 'acme_7b.json'), JSON.stringify([good[0], { ...good[1], ttft_s: 'fast' }]));
    const before = (await t.db.select({ n: count() }).from(datasetRows))[0]!.n;
    await expect(importLlmperfDir(t.db, dir)).rejects.toThrow(/acme_7b\.json.*\[1\]\.ttft_s/);
    expect((await t.db.select({ n: count() }).from(datasetRows))[0]!.n).toBe(before);
  });
});

describe('import claims', () => {
  it('imports claims linked to catalog providers, keeping source and bound', async () => {
    const r = await importClaimsFile(t.db, claimsFile);
    const file = JSON.parse(fs.readFileSync(claimsFile, 'utf8')) as { claims: unknown[] };
    expect(r.claims).toBe(file.claims.length);
    const items = await listClaims(t.db, { modelSlug: 'llama-4-maverick' });
    const nvidia = items.find((c) => c.value === 1038)!;
    expect(nvidia.providerSlug).toBe('nvidia');
    expect(nvidia.bound).toBe('eq');
    expect(nvidia.measuredBy).toBe('Artificial Analysis');
    expect(nvidia.sourcePublisher).toBe("Tom's Hardware");
    const fireworks = items.find((c) => c.provider === 'Fireworks')!;
    expect(fireworks.bound).toBe('lt');
    expect(fireworks.value).toBe(200);
    const linked = await t.db.select({ n: count() }).from(claims).innerJoin(providers, eq(providers.id, claims.providerId));
    expect(linked[0]!.n).toBe(file.claims.length);
    await importClaimsFile(t.db, claimsFile);
    expect((await t.db.select({ n: count() }).from(claims))[0]!.n).toBe(file.claims.length);
  });
});
