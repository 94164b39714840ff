/**
 * Issue 20 item "an answer must be an answer", through the real worker task, the SSRF-guarded
 * fetch, real local HTTP servers and real Postgres (decision 171):
 * - a failed fidelity check makes the measurement not rankable (`fidelity_failed`);
 * - an endpoint that streams plausible text to ordinary prompts but fails its fidelity checks is
 *   listed but not ranked for the window (`notRankedReason: fidelity_below_bound`), while the
 *   reference server (which answers correctly) is ranked;
 * - the same answer to different prompts (`repeated_answer`) and a generation loop
 *   (`degenerate_output`) are not rankable, without any fidelity check.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measurements, workloads } from '@/db/schema';
import { type TestDatabase } from '@/db/test-support/test-database';
import { getLeaderboardAnswer } from '@/server/leaderboard';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { answerFidelityPrompt } from '@/lib/fidelity/answer-task';
import { startAnsweringServer, type AnsweringServer } from '@/lib/fidelity/test-support/answering-server';
import type { FetchLike } from '@/lib/probe/types';
import { referenceWord } from '@/lib/reference-server/reference-words';
import { probeTaskContext } from './test-support/probe-task-context';
import { runLocalProbe } from './test-support/run-local-probe';
import { addTestEndpoint } from './test-support/add-test-endpoint';
import { startReferenceTaskSuite, stopReferenceTaskSuite, type ReferenceTaskSuite } from './test-support/reference-task-suite';

let suite: ReferenceTaskSuite | undefined;
let t: TestDatabase;
const servers: AnsweringServer[] = [];
const fetches: FetchLike[] = [];
const ids: Record<string, number> = {};

/** Varied words that depend on the prompt: reads like an answer to the n-gram and symbol rules. */
function variedText(prompt: string, words = 80): string {
  let seed = 0;
  for (let i = 0; i < prompt.length; i++) seed = (seed * 31 + prompt.charCodeAt(i)) | 0;
  return Array.from({ length: words }, (_, i) => referenceWord((seed >>> 0) + i * 13)).join('');
}

/** Plausible fast text for ordinary prompts, a wrong result for fidelity prompts. */
const junkButPlausible = (prompt: string) => (answerFidelityPrompt(prompt) ? `ANSWER: 7\nCODE: AAAA-BBBB-CCCC\n${variedText(prompt, 30)}` : variedText(prompt));
const canned = () =>
  'Thank you for your question. Here is a short story about a lighthouse keeper who watched the sea every night and wrote down what he saw in a small notebook.';
const looping = () => 'the answer is the answer is '.repeat(30);

/**
 * The reasons a measurement is not rankable that speak of its answer. The answering servers pace
 * words with this process's timers, so on a loaded machine a late timer can hold or stall a stream,
 * and the delivery rules (or the clock) then refuse it too: true of the machine, not of the answer,
 * which is this file's subject (decision 286).
 */
const answerReasons = (m: { notRankableReasons: string[] }) => m.notRankableReasons.filter((r) => r !== 'implausible_delivery' && r !== 'timing_uncertain');

async function probe(endpointSlug: string, workloadSlug: string, slotStart: string, fidelity: boolean) {
  const [w] = await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, workloadSlug));
  const endpointId = ids[endpointSlug]!;
  const { jobKey, result: r } = await runLocalProbe(probeTaskContext(t.db, {}, fetches), { endpointId, workloadId: w!.id, slotStart, fidelity });
  expect(r).toMatchObject({ status: 'recorded', outcome: 'success' });
  const [m] = await t.db.select().from(measurements).where(eq(measurements.jobKey, jobKey));
  return m!;
}

beforeAll(async () => {
  // Answers are the subject here, not the clock: quiet timing evidence (decision 180), so rankability
  // does not depend on this machine's load.
  suite = await startReferenceTaskSuite({ tps: 2000, ttftMs: 5, tokensPerChunk: 2, outputTokens: 120 }, fetches);
  t = suite.t;
  ids.reference = suite.calibrationId;
  for (const [slug, answer] of [
    ['junk-local', junkButPlausible],
    ['canned-local', canned],
    ['looping-local', looping],
  ] as const) {
    const server = await startAnsweringServer(answer);
    servers.push(server);
    ids[slug] = await addTestEndpoint(t.db, slug, server.url, { apiModelId: 'm', besideEndpointId: suite.calibrationId });
  }
}, 60_000);

afterAll(async () => {
  for (const s of servers) await s.close();
  await stopReferenceTaskSuite(suite);
});

describe('an answer must be an answer (worker task, real servers, real Postgres)', () => {
  it('a failed fidelity check is fidelity_failed; the same endpoint’s ordinary probes stay rankable', async () => {
    const failed = await probe('junk-local', 'math-1k', '2026-11-30T12:00:00.000Z', true);
    expect(failed.fidelityPassed).toBe(false);
    expect(failed.rankable).toBe(false);
    expect(answerReasons(failed)).toEqual(['fidelity_failed']);
    const ordinary = await probe('junk-local', 'math-1k', '2026-11-30T12:01:00.000Z', false);
    expect(answerReasons(ordinary)).toEqual([]);
    const passed = await probe('reference', 'math-1k', '2026-11-30T12:00:00.000Z', true);
    expect(passed.fidelityPassed).toBe(true);
    expect(answerReasons(passed)).toEqual([]);
  }, 60_000);

  it('an endpoint failing its fidelity checks is listed but not ranked for the window (fidelity_below_bound); the reference is ranked', async () => {
    // Three more ordinary (rankable) samples and two more failed checks: 0 of 3 passed, Wilson upper bound 0.56.
    for (const [i, fidelity] of [
      [2, false],
      [3, false],
      [4, true],
      [5, true],
      [6, false],
    ] as const) {
      await probe('junk-local', 'math-1k', `2026-11-30T12:0${i}:00.000Z`, fidelity);
    }
    for (const i of [1, 2, 3]) await probe('reference', 'math-1k', `2026-11-30T12:0${i}:00.000Z`, false);
    const answer = await getLeaderboardAnswer(
      t.db,
      leaderboardQuerySchema.parse({ model: 'tokenpace-reference', workload: 'math-1k' }),
      new Date(Date.now() + 61_000),
    );
    const junk = answer.entries.find((e) => e.endpoint.id === ids['junk-local'])!;
    expect(junk.samples).toBeGreaterThanOrEqual(3);
    expect(junk.fidelity).toMatchObject({ passRate: 0, n: 3 });
    expect(junk.rank).toBeNull();
    expect(junk.notRankedReason).toBe('fidelity_below_bound');
    const ref = answer.entries.find((e) => e.endpoint.id === ids.reference)!;
    expect(ref.rank).toBe(1);
    expect(ref.notRankedReason).toBeNull();
  }, 120_000);

  it('the same answer to a different prompt is repeated_answer (the first one is not); a generation loop is degenerate_output', async () => {
    const first = await probe('canned-local', 'prose-1k', '2026-11-30T13:00:00.000Z', false);
    expect(answerReasons(first)).toEqual([]);
    const second = await probe('canned-local', 'prose-1k', '2026-11-30T13:01:00.000Z', false);
    expect(second.promptHash).not.toBe(first.promptHash);
    expect(answerReasons(second)).toEqual(['repeated_answer']);
    expect((second.evidence as { answerSha256?: string }).answerSha256).toBe((first.evidence as { answerSha256?: string }).answerSha256);
    const loop = await probe('looping-local', 'prose-1k', '2026-11-30T13:00:00.000Z', false);
    expect(loop.notRankableReasons).toContain('degenerate_output');
    expect((loop.evidence as { degenerate?: string[] }).degenerate).toEqual(['repeated_ngrams', 'copied_spans']);
  }, 60_000);
});
