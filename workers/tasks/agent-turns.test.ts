/**
 * Agent turns (issue 25 item 3, decision 267) over real HTTP, real Postgres and the one statistics
 * engine: the worker sends a 3-turn conversation whose turns are forced tool calls, feeding each
 * call and its tool result back in the protocol's own shapes (Chat `tool_calls` and `role: "tool"`;
 * Responses `function_call` and `function_call_output`: two endpoints of one model), to a reference
 * server with a prefix cache of known truth (miss TTFT, hit TTFT, decode rate, 128-token blocks).
 * Per turn the leaderboard answer recovers TTFT, TPS/user, the cached tokens and the cached share
 * of the prompt (decisions 290-291: the prompt's input tokens as the server reported them) within
 * 5 % of that truth: turn 1 cold, turns 2-3 served from the turns before them. TTFT and TPS/user
 * are judged against what the server really delivered (its write log: on a loaded machine it is
 * late, never early; lib/reference-server/test-support/delivery-truth.ts), and the server is
 * checked to have kept its configured schedule (never ahead of it).
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { measurements, workloads } from '@/db/schema';
import { type TestDatabase } from '@/db/test-support/test-database';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { AGENT_TURNS } from '@/lib/probe/agent-prompts';
import type { FetchLike } from '@/lib/probe/types';
import { AGENT_WORKLOADS } from '@/lib/probe/workloads';
import { conversationText, measureRecordTps, type ReferenceServer } from '@/lib/reference-server/reference-server';
import { expectNeverAhead, monotonicNow, recordForPrompt } from '@/lib/reference-server/test-support/delivery-truth';
import { percentile } from '@/lib/stats/percentiles';
import { createGuardedFetch } from '@/lib/security/ssrf-guard';
import { encodeO200k } from '@/lib/tokens/o200k';
import { getLeaderboardAnswer } from '@/server/leaderboard';
import { agentTurnSuffix } from './probe-endpoint';
import { probeTaskContext } from './test-support/probe-task-context';
import { copyCalibrationEndpoint } from './test-support/copy-calibration-endpoint';
import { useReferenceTaskSuite } from './test-support/reference-task-suite';
import { runLocalProbe, decemberSlot } from './test-support/run-local-probe';

/** The configured truth. */
const COLD_TTFT_MS = 1200;
const WARM_TTFT_MS = 300;
const TPS = 250;
const BLOCK_TOKENS = 128;
const CONVERSATIONS = 5;
/**
 * How much later than the server's first write the probe may read it here, ms: the server and the
 * probe share this process's loop, and a loaded machine deschedules both (seen: 17 ms over the 5 %
 * at turn 2, load 10). The probe's real timing evidence would say so (decision 180); this file
 * injects quiet evidence so that rankability does not depend on the load.
 */
const READ_SLACK_MS = 40;

let t: TestDatabase;
let reference: ReferenceServer | undefined;
let chatId = 0;
let responsesId = 0;
/** request bodies as sent, in order (Chat `messages` or Responses `input`), with the monotonic epoch ms just before each was sent */
const sent: Array<{ messages: unknown[]; sentAt: number }> = [];

const fetches = useReferenceTaskSuite(
  {
    tps: TPS,
    ttftMs: COLD_TTFT_MS,
    tokensPerChunk: 2,
    outputTokens: 64,
    prefixCache: { hitTtftMs: WARM_TTFT_MS, blockTokens: BLOCK_TOKENS },
    recordWrites: true,
  },
  async (s) => {
    ({ t } = s);
    reference = s.reference;
    chatId = s.calibrationId;
    // the same reference server spoken to through the Responses API
    responsesId = await copyCalibrationEndpoint(t.db, chatId, '-responses', { protocol: 'openai-responses' });
  },
);

describe('agent turns (worker task, reference server, real Postgres)', () => {
  it('each job writes one measurement per turn; the engine recovers per-turn TTFT, TPS/user and cached tokens within 5 %', async () => {
    expect(AGENT_WORKLOADS.length).toBe(AGENT_TURNS);
    const [turn1] = await t.db.select({ id: workloads.id, scheduled: workloads.scheduled }).from(workloads).where(eq(workloads.slug, 'agent-turn-1'));
    const [turn2] = await t.db.select({ scheduled: workloads.scheduled }).from(workloads).where(eq(workloads.slug, 'agent-turn-2'));
    expect(turn1!.scheduled).toBe(true);
    expect(turn2!.scheduled).toBe(false);
    const ctx = probeTaskContext(
      t.db,
      {
        createFetch: ({ allowPrivate }) => {
          const f = createGuardedFetch({ allowPrivate }) as unknown as FetchLike;
          fetches.push(f);
          const capture: FetchLike = (input, init) => {
            if (typeof init?.body === 'string' && /\/(chat\/completions|responses)$/.test(String(input))) {
              const b = JSON.parse(init.body) as { messages?: unknown[]; input?: unknown[] };
              sent.push({ messages: b.messages ?? b.input ?? [], sentAt: monotonicNow() });
            }
            return f(input, init);
          };
          return Object.assign(capture, { dispatcher: (f as unknown as { dispatcher?: unknown }).dispatcher });
        },
      },
      fetches,
    );
    /** truth of cached tokens per request: the whole blocks of the request before it in the same conversation */
    const truthOf = new Map<number, number[][]>();
    /** truth of the cached share per request: those tokens ÷ the o200k tokens of its whole conversation */
    const shareTruthOf = new Map<number, number[][]>();
    /** what the server delivered per request: TPS/user from its write log, TTFT from the request's send to its first write */
    const deliveredOf = new Map<number, Array<{ tps: number[]; ttftMs: number[] }>>();
    for (const [protocol, endpointId] of [
      ['openai-chat', chatId],
      ['openai-responses', responsesId],
    ] as const) {
      const cachedTruth: number[][] = Array.from({ length: AGENT_TURNS }, () => []);
      truthOf.set(endpointId, cachedTruth);
      const shareTruth: number[][] = Array.from({ length: AGENT_TURNS }, () => []);
      shareTruthOf.set(endpointId, shareTruth);
      const delivered = Array.from({ length: AGENT_TURNS }, () => ({ tps: [] as number[], ttftMs: [] as number[] }));
      deliveredOf.set(endpointId, delivered);
      for (let i = 0; i < CONVERSATIONS; i++) {
        const slotStart = decemberSlot(8, i);
        const before = sent.length;
        const { jobKey, result: r } = await runLocalProbe(ctx, { endpointId, workloadId: turn1!.id, slotStart });
        expect(r).toMatchObject({ status: 'recorded', outcome: 'success' });
        const bodies = sent.slice(before);
        expect(bodies.length).toBe(AGENT_TURNS);
        for (let turn = 1; turn <= AGENT_TURNS; turn++) {
          const [m] = await t.db
            .select()
            .from(measurements)
            .where(eq(measurements.jobKey, turn === 1 ? jobKey : `${jobKey}${agentTurnSuffix(turn)}`));
          expect(m!.notRankableReasons, JSON.stringify(m!.evidence)).toEqual([]);
          expect(m!.fidelityCheck).toBe('json_schema');
          expect(m!.fidelityPassed).toBe(true);
          expect(m!.finishReason).toBe('tool_calls');
          expect(m!.outputTokensReported).toBe(64);
          // The request: the protocol's own shapes, the prefix growing by a call and its result each turn.
          const messages = bodies[turn - 1]!.messages as Array<Record<string, unknown>>;
          expect(messages.length).toBe(1 + 2 * (turn - 1));
          if (turn > 1) {
            const call = messages[messages.length - 2]!;
            const result = messages[messages.length - 1]!;
            if (protocol === 'openai-chat') {
              expect(call).toMatchObject({ role: 'assistant', content: null });
              const toolCall = (call.tool_calls as Array<{ id: string; function: { name: string; arguments: string } }>)[0]!;
              expect(toolCall.function.name).toBe('save_section');
              expect(JSON.parse(toolCall.function.arguments)).toMatchObject({ title: 'A story' });
              expect(result).toMatchObject({ role: 'tool', tool_call_id: toolCall.id });
            } else {
              expect(call).toMatchObject({ type: 'function_call', name: 'save_section' });
              expect(JSON.parse(call.arguments as string)).toMatchObject({ title: 'A story' });
              expect(result).toMatchObject({ type: 'function_call_output', call_id: call.call_id });
            }
            // the earlier turn's request is a prefix of this one
            expect(JSON.stringify(messages.slice(0, messages.length - 2))).toBe(JSON.stringify(bodies[turn - 2]!.messages));
          }
          const previous = turn === 1 ? 0 : Math.floor(encodeO200k(conversationText(bodies[turn - 2]!.messages)).length / BLOCK_TOKENS) * BLOCK_TOKENS;
          cachedTruth[turn - 1]!.push(previous);
          expect(m!.cachedInputTokens).toBe(previous);
          // the prompt as the server counted it: every token of this turn's conversation
          const prompt = encodeO200k(conversationText(messages)).length;
          expect(m!.inputTokensReported).toBe(prompt);
          shareTruth[turn - 1]!.push(previous / prompt);
          // what the server really sent: never ahead of its schedule (on a loaded machine, late)
          const record = recordForPrompt(reference!.writeLog(), conversationText(messages));
          expectNeverAhead(record, { tps: TPS, ttftMs: turn === 1 ? COLD_TTFT_MS : WARM_TTFT_MS });
          delivered[turn - 1]!.tps.push(measureRecordTps(record)!);
          delivered[turn - 1]!.ttftMs.push(record.writeAt[0]! - bodies[turn - 1]!.sentAt);
        }
      }
    }

    const asOf = new Date(Date.now() + 61_000);
    const within5 = (got: number | undefined, truth: number, what: string) => expect(Math.abs(got! - truth), what).toBeLessThanOrEqual(truth * 0.05);
    for (const endpointId of [chatId, responsesId]) {
      const cachedTruth = truthOf.get(endpointId)!;
      for (let turn = 1; turn <= AGENT_TURNS; turn++) {
        const answer = await getLeaderboardAnswer(
          t.db,
          leaderboardQuerySchema.parse({ model: 'tokenpace-reference', workload: `agent-turn-${turn}`, basis: 'reported' }),
          asOf,
        );
        const e = answer.entries.find((x) => x.endpoint.id === endpointId)!;
        expect(e.samples).toBe(CONVERSATIONS);
        const delivered = deliveredOf.get(endpointId)![turn - 1]!;
        // TTFT: never under what was delivered (less 5 %); above it by at most 5 % plus READ_SLACK_MS,
        // the reader's own lateness on this shared, loaded loop, which the injected quiet evidence hides
        const ttftTruth = percentile(delivered.ttftMs, 50);
        expect(e.ttftMs!.p50, `turn ${turn} TTFT`).toBeGreaterThanOrEqual(ttftTruth * 0.95);
        expect(e.ttftMs!.p50, `turn ${turn} TTFT`).toBeLessThanOrEqual(ttftTruth * 1.05 + READ_SLACK_MS);
        within5(e.outputTokensPerSecond?.p50, percentile(delivered.tps, 50), `turn ${turn} TPS/user`);
        const truths = [...cachedTruth[turn - 1]!].sort((a, b) => a - b);
        const shares = [...shareTruthOf.get(endpointId)![turn - 1]!].sort((a, b) => a - b);
        expect(e.cachedInputShare?.n, `turn ${turn} cached share n`).toBe(CONVERSATIONS);
        if (turn === 1) {
          expect(e.cacheHit).toMatchObject({ share: 0, n: CONVERSATIONS });
          // nothing of a new conversation was cached: the share is 0, reported (not unknown)
          expect(e.cachedInputShare).toMatchObject({ p50: 0, p95: 0 });
        } else {
          // turn 2's prefix is the ~1,100-token task, turn 3's the task, call 1 and result 1
          expect(truths[0]!).toBeGreaterThanOrEqual(turn === 2 ? 896 : 1_280);
          within5(e.cachedInputTokens?.p50, truths[Math.floor(truths.length / 2)]!, `turn ${turn} cached tokens`);
          expect(e.cacheHit).toMatchObject({ share: 1, n: CONVERSATIONS });
          // most of each later turn is the turns before it
          expect(shares[0]!).toBeGreaterThan(0.5);
          within5(e.cachedInputShare?.p50, shares[Math.floor(shares.length / 2)]!, `turn ${turn} cached share`);
        }
      }
    }
  }, 300_000);
});
