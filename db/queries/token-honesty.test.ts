/**
 * Decision 175: the token-honesty ratio over real Postgres rows: an endpoint reporting 24 % more
 * tokens than it sent is flagged against its tokenizer's band, an honest one is within it, hidden
 * reasoning tokens are taken out of the reported side, and failed or out-of-window probes do not count.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '../test-support/test-database';
import { seedCatalog } from '../seed';
import { endpoints, workloads } from '../schema';
import { insertMeasurement } from './measurements';
import { getTokenHonesty } from './token-honesty';

const NOW = new Date('2026-12-01T12:00:00Z');
const FROM = new Date(NOW.getTime() - 72 * 3600_000);
let t: TestDatabase;
let calibration: number;
let groq: number;

async function add(endpointId: number, i: number, reported: number | null, o200k: number, extra: { hidden?: number; at?: Date; failed?: boolean } = {}) {
  const [wl] = await t.db.select({ id: workloads.id }).from(workloads).limit(1);
  await insertMeasurement(t.db, {
    jobKey: `honesty:${endpointId}:${i}`,
    endpointId,
    workloadId: wl!.id,
    measuredAt: extra.at ?? new Date(NOW.getTime() - (i + 1) * 60_000),
    workerRegion: 'local',
    workerVersion: 'test',
    outcome: extra.failed ? 'error' : 'success',
    errorKind: extra.failed ? 'timeout' : null,
    rankable: !extra.failed,
    notRankableReasons: extra.failed ? ['failed'] : [],
    outputTokensReported: reported,
    outputTokensO200k: o200k,
    reasoningTokensHidden: extra.hidden ?? null,
    contentChunks: 10,
  });
}

beforeAll(async () => {
  t = await createTestDatabase();
  await seedCatalog(t.db, {
    workloads: [{ slug: 'prose-1k', category: 'prose', inputTokensTarget: 1000, maxOutputTokens: 256, concurrency: 1, scheduled: true }],
    lookupEnv: () => 'x',
    referencePort: 1,
  });
  calibration = (await t.db.select({ id: endpoints.id }).from(endpoints).where(eq(endpoints.isCalibration, true)))[0]!.id;
  groq = (await t.db.select({ id: endpoints.id }).from(endpoints).where(eq(endpoints.slug, 'groq-llama-4-maverick')))[0]!.id;
  // The calibration model (o200k words, band 0.99–1.01): usage inflated by 24 %, answers of 200–260 tokens.
  for (let i = 0; i < 30; i++) {
    const o = 200 + ((i * 7) % 61);
    await add(calibration, i, Math.round(o * 1.24), o);
  }
  // Not counted: a failed probe, one outside the window, one without a reported count.
  await add(calibration, 100, 10_000, 10, { failed: true });
  await add(calibration, 101, 10_000, 10, { at: new Date(FROM.getTime() - 60_000) });
  await add(calibration, 102, null, 500);
  // Llama 4 (band 0.95–1.10): 4 % over o200k, plus hidden reasoning that is not dishonesty.
  for (let i = 0; i < 30; i++) {
    const o = 180 + ((i * 13) % 70);
    await add(groq, i, Math.round(o * 1.04) + 300, o, { hidden: 300 });
  }
}, 120_000);
afterAll(async () => t?.drop());

it('flags 24 % over-reporting against the o200k band, with an interval that excludes the band', async () => {
  const h = await getTokenHonesty(t.db, { endpointId: calibration, from: FROM, to: NOW });
  expect(h.ratio!.n).toBe(30);
  expect(h.ratio!.ratio).toBeCloseTo(1.24, 2);
  expect(h.ratio!.low).toBeGreaterThan(1.23);
  expect(h.ratio!.high).toBeLessThan(1.25);
  expect(h.expected).toMatchObject({ low: 0.99, high: 1.01 });
  expect(h.verdict).toBe('over_reported');
  expect(h.o200kTokens).toBe(Array.from({ length: 30 }, (_, i) => 200 + ((i * 7) % 61)).reduce((a, b) => a + b, 0));
});

it('an honest count with hidden reasoning stays within its family’s band', async () => {
  const h = await getTokenHonesty(t.db, { endpointId: groq, from: FROM, to: NOW });
  expect(h.expected.tokenizer).toBe('Llama 4 (200k)');
  expect(h.ratio!.ratio).toBeGreaterThan(1.03);
  expect(h.ratio!.ratio).toBeLessThan(1.05);
  expect(h.verdict).toBe('within');
});

it('no reported counts: no ratio and no verdict', async () => {
  const h = await getTokenHonesty(t.db, { endpointId: groq, from: new Date('2020-01-01T00:00:00Z'), to: new Date('2020-01-02T00:00:00Z') });
  expect(h).toMatchObject({ ratio: null, verdict: null, reportedTokens: 0, o200kTokens: 0 });
});
