/**
 * Issue 14: fidelity probes end to end through the real worker task, the SSRF-guarded fetch and
 * the database. The calibration reference server answers every fidelity task correctly; a server
 * that answers wrongly fails `wrong_answer`; a server that truncates the prompt (keeps its end,
 * like left-truncation of an over-long context) fails the nonce check. Each measurement keeps the
 * answer text, the verdict and per-measurement ITL.
 */
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, measurements, workloads } from '@/db/schema';
import { type TestDatabase } from '@/db/test-support/test-database';
import { answerFidelityPrompt } from '@/lib/fidelity/answer-task';
import { startAnsweringServer, type AnsweringServer } from '@/lib/fidelity/test-support/answering-server';
import type { FetchLike } from '@/lib/probe/types';
import { injectLateness } from '@/lib/probe/test-support/injected-lateness';
import { listNotableChanges } from '@/app/feed/notable-changes';
import { listWindowFidelity } from '@/db/queries/fidelity';
import { getHiddenReasoning } from '@/db/queries/hidden-reasoning';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { summariseFidelity } from '@/lib/fidelity/fidelity-summary';
import { getLeaderboardAnswer } from '@/server/leaderboard';
import { rollUpStoredMeasurements } from '@/db/test-support/roll-up-stored';
import { listWindowStats, listWindowStatsFromRaw } from '@/server/window-stats';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { type ProbeTaskContext } from './probe-endpoint';
import { probeTaskContext } from './test-support/probe-task-context';
import { runLocalProbe } from './test-support/run-local-probe';
import { addTestEndpoint } from './test-support/add-test-endpoint';
import { startReferenceTaskSuite, stopReferenceTaskSuite, type ReferenceTaskSuite } from './test-support/reference-task-suite';

let suite: ReferenceTaskSuite | undefined;
let t: TestDatabase;
let wrong: AnsweringServer;
let truncating: AnsweringServer;
const fetches: FetchLike[] = [];
const ids: Record<string, number> = {};

/** A wrong model: the right format, the right code, a result off by one. */
function answerWrongly(prompt: string): string {
  const right = answerFidelityPrompt(prompt) ?? 'no idea';
  return right.replace(/(ANSWER: |"result":)(-?\d+)/, (_m, label: string, n: string) => `${label}${Number(n) + 1}`) + ' and more words follow.';
}

/** A server that keeps only the last 60 % of the prompt (left truncation), then answers perfectly. */
function answerTruncated(prompt: string): string {
  return (answerFidelityPrompt(prompt.slice(Math.floor(prompt.length * 0.4))) ?? 'no question seen') + ' more words.';
}

const ctx = (): ProbeTaskContext => probeTaskContext(t.db, {}, fetches);

async function probe(endpointSlug: string, workloadSlug: string, slotStart: string, fidelity = true) {
  const [w] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, workloadSlug));
  const endpointId = ids[endpointSlug]!;
  const { jobKey, result: r } = await runLocalProbe(ctx(), { endpointId, workloadId: w!.id, slotStart, fidelity });
  expect(r).toMatchObject({ status: 'recorded', outcome: 'success' });
  const [m] = await t.db
    .select()
    .from(measurements)
    .where(and(eq(measurements.jobKey, jobKey)));
  return m!;
}

beforeAll(async () => {
  // Fidelity and counts are the subject here, not the clock: the timing evidence is injected as
  // quiet so that rankability does not depend on this machine's load (decision 180).
  suite = await startReferenceTaskSuite({ tps: 4000, ttftMs: 5, tokensPerChunk: 2, outputTokens: 120 }, fetches);
  ({ t } = suite);
  wrong = await startAnsweringServer(answerWrongly);
  truncating = await startAnsweringServer(answerTruncated);
  ids.reference = suite.calibrationId;
  for (const [slug, server] of [
    ['wrong-local', wrong],
    ['truncating-local', truncating],
  ] as const) {
    ids[slug] = await addTestEndpoint(t.db, slug, server.url, { apiModelId: 'm', besideEndpointId: suite.calibrationId });
  }
});

afterAll(async () => {
  await wrong?.close();
  await truncating?.close();
  await stopReferenceTaskSuite(suite);
});

describe('fidelity probes through the worker', () => {
  it.each(['prose-100', 'code-1k', 'math-10k', 'json-1k', 'prose-100k'])('the reference server passes %s; answer, verdict and ITL are stored', async (slug) => {
    const m = await probe('reference', slug, '2026-11-30T12:00:00.000Z');
    expect(m.fidelityCheck).not.toBeNull();
    expect(m.fidelityPassed, JSON.stringify(m.fidelityDetail)).toBe(true);
    expect(m.answerText!.length).toBeGreaterThan(10);
    expect(m.outputTokensReported).toBe(120);
    // 2 tokens per chunk at 4000 tokens/s: 0.25 ms per token (timer resolution makes it coarse)
    expect(m.itlP50Ms).not.toBeNull();
    expect(m.itlP95Ms!).toBeGreaterThanOrEqual(m.itlP50Ms!);
  });

  it('a fidelity slot uncertain only on timing is re-probed with the ordinary prompt: the verdict stays with the first run, the re-probe may rank (decision 309)', async () => {
    // The probe's clock gives no evidence for the first request, and is quiet from the second on.
    let posts = 0;
    const base = ctx();
    const c: ProbeTaskContext = {
      ...base,
      createFetch: (o) => {
        const f = base.createFetch(o);
        return (input, init) => {
          if (init?.method === 'POST' && ++posts === 2) injectLateness('quiet');
          return f(input, init);
        };
      },
    };
    injectLateness('unknown');
    try {
      const [w] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, 'prose-1k'));
      const { jobKey } = await runLocalProbe(c, { endpointId: ids.reference!, workloadId: w!.id, slotStart: '2026-11-30T12:03:00.000Z', fidelity: true });
      const rows = await t.db
        .select()
        .from(measurements)
        .where(like(measurements.jobKey, `${jobKey}%`));
      const first = rows.find((r) => r.jobKey === jobKey)!;
      const retry = rows.find((r) => r.jobKey === `${jobKey}:timing-retry`)!;
      expect(rows).toHaveLength(2);
      expect(first).toMatchObject({ fidelityPassed: true, rankable: false, notRankableReasons: ['timing_uncertain'] });
      expect(first.fidelityCheck).not.toBeNull();
      // the re-probe: an ordinary prompt (its own hash), no second verdict, ranked on its own clock
      expect(retry).toMatchObject({ fidelityCheck: null, fidelityPassed: null, answerText: null, rankable: true, notRankableReasons: [] });
      expect(retry.promptHash).not.toBe(first.promptHash);
      // the window's fidelity counts the check once
      expect(rows.filter((r) => r.fidelityCheck !== null)).toHaveLength(1);
      // the window tests below count the reference server's checks: this slot's rows are not theirs
      await t.db.delete(measurements).where(like(measurements.jobKey, `${jobKey}%`));
    } finally {
      injectLateness('quiet');
    }
  });

  it('an ordinary probe stores no answer and no verdict, but ITL', async () => {
    const m = await probe('reference', 'prose-1k', '2026-11-30T12:01:00.000Z', false);
    expect(m).toMatchObject({ fidelityCheck: null, fidelityPassed: null, answerText: null });
    expect(m.itlP50Ms).not.toBeNull();
  });

  it.each(['math-1k', 'code-100', 'json-10k'])('a server that answers wrongly fails %s (wrong_answer)', async (slug) => {
    const m = await probe('wrong-local', slug, '2026-11-30T12:02:00.000Z');
    expect(m.fidelityPassed).toBe(false);
    expect((m.fidelityDetail as { failures: string[] }).failures).toEqual(['wrong_answer']);
  });

  it.each(['prose-10k', 'math-10k', 'json-10k', 'code-1k'])('a server that truncates the prompt fails the nonce check on %s', async (slug) => {
    const m = await probe('truncating-local', slug, '2026-11-30T12:03:00.000Z');
    expect(m.fidelityPassed).toBe(false);
    expect((m.fidelityDetail as { failures: string[] }).failures).toEqual(['nonce_missing']);
    expect(truncating.prompts.at(-1)).toContain('part 1 of the access code');
  });
});

describe('fidelity beside speed', () => {
  it('the window pass rate is 1 for the reference server and below 1 for the wrong and truncating ones; the feed reports the drops', async () => {
    const now = new Date();
    const rows = await listWindowFidelity(t.db, { from: new Date(now.getTime() - 3_600_000), to: new Date(now.getTime() + 1000) });
    const byEndpoint = (id: number) => {
      const mine = rows.filter((r) => r.endpointId === id);
      return summariseFidelity(
        mine.reduce((s, r) => s + r.passed, 0),
        mine.reduce((s, r) => s + r.n, 0),
      );
    };
    expect(byEndpoint(ids.reference!)).toMatchObject({ passRate: 1, n: 5 });
    expect(byEndpoint(ids['wrong-local']!)).toMatchObject({ passRate: 0, n: 3 });
    expect(byEndpoint(ids['truncating-local']!)!.passRate).toBeLessThan(1);
    expect(byEndpoint(ids['wrong-local']!)!.interval.high).toBeLessThan(0.95);

    const feed = await listNotableChanges(t.db, { now: new Date(now.getTime() + 1000), days: 7, limit: 50 });
    const drops = feed.filter((e) => e.kind === 'fidelity-drop');
    expect(drops.map((d) => d.path).sort()).toEqual([`/endpoints/${ids['truncating-local']}`, `/endpoints/${ids['wrong-local']}`].sort());
    expect(drops.find((d) => d.path === `/endpoints/${ids['wrong-local']}`)!.title).toContain('passed 0 %');
  });
});

describe('fidelity and ITL on the leaderboard (the window engine)', () => {
  it('the calibration entry carries fidelity pass rate 1 with n > 0 and its median ITL P50/P95; the wrong server’s entry a pass rate below 1', async () => {
    const answer = await getLeaderboardAnswer(
      t.db,
      leaderboardQuerySchema.parse({ model: 'tokenpace-reference', workload: 'math-1k' }),
      new Date(Date.now() + 61_000),
    );
    const byId = new Map(answer.entries.map((e) => [e.endpoint.id, e]));
    expect(byId.get(ids['wrong-local']!)!.fidelity).toMatchObject({ passRate: 0, n: 1 });
    // ITL is a figure of rankable measurements only. The reference server paces with this process's
    // timers, so on a loaded machine a stalled stream may be refused by the delivery rules (the
    // machine's doing, decision 286): ordinary probes are added until one is rankable (the fidelity
    // pass rate counts fidelity probes only, so it stays n = 1).
    const [math10k] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, 'math-10k'));
    const rankableRows = async () =>
      (
        await t.db
          .select({ id: measurements.id })
          .from(measurements)
          .where(and(eq(measurements.endpointId, ids.reference!), eq(measurements.workloadId, math10k!.id), eq(measurements.rankable, true)))
      ).length;
    for (let i = 0; i < 5 && (await rankableRows()) === 0; i++) await probe('reference', 'math-10k', `2026-11-30T14:0${i}:00.000Z`, false);
    expect(await rankableRows()).toBeGreaterThan(0);
    const calib = await getLeaderboardAnswer(
      t.db,
      leaderboardQuerySchema.parse({ model: 'tokenpace-reference', workload: 'math-10k' }),
      new Date(Date.now() + 61_000),
    );
    const ref = calib.entries.find((e) => e.endpoint.id === ids.reference)!;
    expect(ref.fidelity).toMatchObject({ passRate: 1, n: 1, interval: { high: 1 } });
    // 2 tokens per chunk at 4000 tokens/s: several chunks share one TCP read, so gaps of 0 ms are real here
    expect(ref.medianItlP95Ms!).toBeGreaterThanOrEqual(ref.medianItlP50Ms!);
    expect(ref.medianItlP50Ms!).toBeGreaterThanOrEqual(0);
    expect(ref.endpoint).toHaveProperty('blendedUsdPerMTokens', null);
  });

  it('rollup buckets and raw rows give the same fidelity and ITL figures', async () => {
    const now = Date.now();
    const hourStart = new Date(Math.floor(now / 3_600_000) * 3_600_000);
    await rollUpStoredMeasurements(t.db, new Date(now));
    // As of the next hour, this hour is read from its rollup bucket (or, past midnight UTC, its day's), not from raw rows.
    let compared = 0;
    for (const workloadSlug of ['json-10k', 'math-10k']) {
      const params = {
        modelSlug: 'tokenpace-reference',
        workloadSlug,
        asOf: new Date(hourStart.getTime() + 3_600_000 + 60_000),
        windowHours: 24,
        basis: 'reported' as const,
        region: null,
      };
      const [fromParts, fromRaw] = await Promise.all([listWindowStats(t.db, params), listWindowStatsFromRaw(t.db, params)]);
      for (const id of [ids.reference!, ids['wrong-local']!, ids['truncating-local']!]) {
        const a = fromParts.find((r) => r.endpoint.id === id)!;
        const b = fromRaw.find((r) => r.endpoint.id === id)!;
        expect(a.fidelity, `${workloadSlug} ${id}`).toEqual(b.fidelity);
        if (b.fidelity) compared += 1;
        expect(a.medianItlP50Ms === null).toBe(b.medianItlP50Ms === null);
        expect(a.medianItlP95Ms === null).toBe(b.medianItlP95Ms === null);
        if (b.medianItlP50Ms !== null && b.medianItlP95Ms !== null) {
          expect(Math.abs(a.medianItlP50Ms! - b.medianItlP50Ms)).toBeLessThanOrEqual(b.medianItlP50Ms * 0.001 + 1e-9);
          expect(Math.abs(a.medianItlP95Ms! - b.medianItlP95Ms)).toBeLessThanOrEqual(b.medianItlP95Ms * 0.001 + 1e-9);
        }
      }
      if (workloadSlug === 'json-10k') expect(fromParts.find((r) => r.endpoint.id === ids['wrong-local'])!.fidelity!.passRate).toBe(0);
    }
    expect(compared).toBe(4);
  });
});

const WORDS_20 = [
  ' the',
  ' old',
  ' keeper',
  ' lit',
  ' his',
  ' lamp',
  ' each',
  ' night',
  ' and',
  ' watched',
  ' ships',
  ' pass',
  ' far',
  ' from',
  ' shore',
  ' under',
  ' cold',
  ' grey',
  ' winter',
  ' skies',
];

describe('hidden reasoning', () => {
  it('reasoning tokens reported in usage but not streamed are stored and summed per endpoint × workload', async () => {
    // 20 streamed answer words; usage reports 20 + 60 completion tokens of which 60 are reasoning (OpenAI o-series shape)
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = (body: object) => `data: ${JSON.stringify(body)}\n\n`;
        res.write(chunk({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }));
        // Streamed, one word every 3 ms (all in one write would be a delivered answer: buffered_stream).
        let i = 0;
        const next = () => {
          if (i++ < 20) {
            // 20 different words, one o200k token each (the same word 20 times is repeated_events, decision 303)
            const word = WORDS_20[i - 1];
            res.write(chunk({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: word }, finish_reason: null }] }));
            setTimeout(next, 3);
            return;
          }
          let out = chunk({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
          out += chunk({
            id: 'x',
            object: 'chat.completion.chunk',
            choices: [],
            usage: { prompt_tokens: 100, completion_tokens: 80, total_tokens: 180, completion_tokens_details: { reasoning_tokens: 60 } },
          });
          res.end(out + 'data: [DONE]\n\n');
        };
        next();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const [cal] = await t.db.select({ providerId: endpoints.providerId, modelId: endpoints.modelId }).from(endpoints).where(eq(endpoints.id, ids.reference!));
      const [e] = await t.db
        .insert(endpoints)
        .values({
          slug: 'hidden-reasoning-local',
          providerId: cal!.providerId,
          modelId: cal!.modelId,
          protocol: 'openai-chat',
          baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
          apiModelId: 'm',
          allowPrivate: true,
          status: 'active',
        })
        .returning({ id: endpoints.id });
      ids['hidden-reasoning-local'] = e!.id;
      const m = await probe('hidden-reasoning-local', 'prose-100', '2026-11-30T12:05:00.000Z', false);
      expect(m.outputTokensReported).toBe(80);
      expect(m.reasoningTokensHidden).toBe(60);
      // Decision 065: the visible 80 − 60 = 20 agrees with the 20 streamed words, so it is ranked,
      // and the evidence keeps the provider's reasoning count.
      // (timing_uncertain, the clock's verdict on a busy machine, is not the counts' and is left
      // out; so is implausible_delivery with its delivery evidence: a reader stalled by a loaded
      // machine after the first of these 3 ms-paced words shows a first gap the rules judge as a
      // pad, the delivery's verdict, not the counts'. The delivery rules are gaming-server.test.ts's.)
      const { timing: _timing, delivery: _delivery, ...evidence } = m.evidence as Record<string, unknown>;
      expect({ reasons: m.notRankableReasons.filter((n) => n !== 'timing_uncertain' && n !== 'implausible_delivery'), evidence }).toEqual({
        reasons: [],
        // answerSha256: the repeated-answer key of every successful answer (decision 171)
        evidence: { reasoningTokensReported: 60, reasoningTokensHidden: 60, answerSha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      });
      expect(m.rankable).toBe(m.notRankableReasons.length === 0);
      const summary = await getHiddenReasoning(t.db, {
        endpointId: e!.id,
        workloadSlug: 'prose-100',
        from: new Date(Date.now() - 60_000),
        to: new Date(Date.now() + 1000),
      });
      expect(summary).toEqual({ measurements: 1, hiddenTokens: 60, reportedOutputTokens: 80 });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
