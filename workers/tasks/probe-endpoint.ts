/**
 * Task: probe (one job per endpoint × workload × region × slot).
 * Claims the slot, builds the slot's prompt, streams one request through the SSRF-guarded fetch,
 * and appends exactly one measurement, failure or success. A 429 with Retry-After pushes the
 * endpoint's next slot back. The API key is decrypted here and nowhere else, and never logged.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '@/db/client';
import { claimProbeSlot, getLatestSeriesMeasurement, hasRepeatedAnswer, insertMeasurement, setEndpointNotBefore } from '@/db/queries/measurements';
import { getProbeSpec } from '@/db/queries/probe-targets';
import { resolveAwsCredentials, resolveEndpointApiKey } from './endpoint-credentials';
import { judgeFidelityProbe } from '@/lib/fidelity/judge-probe';
import { computeInterTokenLatency } from '@/lib/probe/inter-token-latency';
import { probeEndpoint } from '@/lib/probe/probe-endpoint';
import { hashAnswerText } from '@/lib/probe/plausible-output';
import { withNotRankableReasons } from '@/lib/probe/rankability';
import { toStoredTimingBound, type TimingBound } from '@/lib/probe/timing-bound';
import { createStreamIdCapture, fetchDeliveryReport } from '@/lib/reference-server/delivery-report';
import type { ProbeResult } from '@/lib/probe/types';
import { encodeTimeline } from '@/lib/probe/timeline-codec';
import type { FetchLike, NotRankableReason, ProbeDeadlines } from '@/lib/probe/types';
import type { PromptBuilder } from '@/lib/probe/prompt-builder';
import { buildCachePrompts } from '@/lib/probe/cache-prompts';
import { findServiceTierMismatch, judgeTierObjective } from '@/lib/probe/service-tier';
import { buildStructuredProbe, judgeStructuredAnswer } from '@/lib/probe/structured-prompts';
import { AGENT_TOOL, AGENT_TURNS, buildAgentMaterial, callToFeedBack, hashConversation } from '@/lib/probe/agent-prompts';
import type { ConversationMessage } from '@/lib/probe/adapters/conversation';
import { buildCacheLifetimePrompt, cacheLifetimeKey } from '@/lib/probe/cache-lifetime-prompts';
import { buildPrompt, getWorkloadOrThrow } from '@/lib/probe/workloads';
import { getWorkloadId } from '@/db/queries/leaderboard';
import type { LoopDelayMonitor } from '@/lib/probe/loop-delay-monitor';
import type { ProbeJobPayload } from '../queues';

export interface ProbeTaskContext {
  db: Db;
  workerId: string;
  workerVersion: string;
  /** Builds the guarded fetch; allowPrivate only for calibration endpoints or an explicit setting. */
  createFetch: (opts: { allowPrivate: boolean }) => FetchLike;
  /** AES-256-GCM key for submitted API keys, or null when none is configured. */
  secretKey: Buffer | null;
  /**
   * Starts one event-loop delay monitor for the span of a probe (lib/probe createLoopDelayMonitor).
   * Its p99 is stored as event_loop_delay_p99_ms, as evidence: whether the clock can be trusted is
   * the measurement's own error bound (`timing_uncertain`, decision 181), not this p99.
   */
  monitorLoopDelay: () => LoopDelayMonitor;
  deadlines: ProbeDeadlines;
  now: () => Date;
  /** Builds prompts off the event loop (lib/probe/prompt-builder); absent: built in-process (tests). */
  promptBuilder?: PromptBuilder;
}

/**
 * Outcome of running one probe job, for logs, metrics and tests. `skipped`: no measurement was
 * written and the endpoint was not asked — its slot was claimed by another job ('slot-claimed'),
 * the endpoint or workload is gone ('gone'), or the endpoint was under a concurrency sweep
 * ('endpoint-sweeping', set by the probe queue in workers/scheduled-probe.ts, never by runProbeJob),
 * a cache-lifetime check whose series has no successful predecessor with the same prefix
 * ('series-broken': its gap would not be the gap it names) or a worker without a secret key to
 * key the series ('no-secret'; decision 268).
 */
export type ProbeTaskResult =
  | { status: 'skipped'; reason: 'slot-claimed' | 'gone' | 'endpoint-sweeping' | 'series-broken' | 'no-secret' }
  | { status: 'recorded' | 'duplicate'; outcome: 'success' | 'error'; errorKind: string | null };

/** Runs one probe job. Never throws for endpoint failures (those are measurements); throws on DB errors. */
export async function runProbeJob(ctx: ProbeTaskContext, bossJobId: string, job: ProbeJobPayload, signal?: AbortSignal): Promise<ProbeTaskResult> {
  const claimed = await claimProbeSlot(ctx.db, { jobKey: job.jobKey, bossJobId, workerId: ctx.workerId });
  if (!claimed) return { status: 'skipped', reason: 'slot-claimed' };
  const spec = await getProbeSpec(ctx.db, job.endpointId, job.workloadId);
  if (!spec) return { status: 'skipped', reason: 'gone' };
  const { endpoint, workload } = spec;

  // The operator's environment credentials only for catalog endpoints (db/queries/probe-targets.ts).
  const apiKey = resolveEndpointApiKey(endpoint, ctx.secretKey, spec.operatorCredentials);
  const spec0 = { slug: workload.slug, category: workload.category, inputTokensTarget: workload.inputTokensTarget, maxOutputTokens: workload.maxOutputTokens };
  // The prompt (and a fidelity task's access code and expected answer) is keyed by the slot AND
  // 128 secret random bits drawn for this request (decision 173): nothing public (the slot time,
  // the repository's code) predicts it, so no endpoint can precompute an answer or recognise a probe.
  const drawPromptKey = () => `${job.slotStart}\u0000${randomBytes(16).toString('hex')}`;
  const promptKey = drawPromptKey();
  /** The workload's prompt for `key` (the configured builder, else the built-in one). */
  const buildWorkloadPrompt = async (key: string, withFidelity: boolean) =>
    ctx.promptBuilder ? await ctx.promptBuilder.build(spec0, key, { fidelity: withFidelity }) : buildPrompt(spec0, key, { fidelity: withFidelity });
  // The prompt-cache family (issue 25, decision 260): the cold prompt now, its warm partner (same
  // prefix) right after the cold answer ends; no fidelity task.
  const family = cacheFamilyOf(workload.slug);
  const pair = family ? buildCachePrompts(family, promptKey) : null;
  // The structured-output family (issue 25 item 2): the protocol's structured request, checked against its schema.
  const structured = structuredFamilyOf(workload.slug);
  const structuredProbe = structured ? buildStructuredProbe(structured, promptKey) : null;
  // The cache-lifetime series (decision 268): the same secret prefix as the series' seed, keyed by the worker's secret.
  const lifetime = await prepareLifetimeMember(ctx, endpoint.id, workload.slug, job);
  if (lifetime && 'skip' in lifetime) return { status: 'skipped', reason: lifetime.skip };
  // Agent turns (decision 267): turn 1's job sends the whole conversation, turn by turn.
  const agent = workload.slug === 'agent-turn-1' ? buildAgentMaterial(promptKey) : null;
  const { prompt, promptHash, fidelity } = lifetime
    ? lifetime.built
    : pair
      ? pair.cold
      : structuredProbe
        ? structuredProbe.built
        : await buildWorkloadPrompt(promptKey, job.fidelity === true);
  const probeOnce = async (sent: string = prompt, conversation: readonly ConversationMessage[] | null = null) => {
    const measuredAt = ctx.now();
    const loopMonitor = ctx.monitorLoopDelay();
    // Calibration endpoints: the reference server's report of what it really sent (decision 182).
    const streamId = endpoint.isCalibration ? createStreamIdCapture() : null;
    const fetch = ctx.createFetch({ allowPrivate: endpoint.allowPrivate });
    const probed = await probeEndpoint({
      protocol: endpoint.protocol,
      url: endpoint.baseUrl,
      model: endpoint.apiModelId,
      apiKey,
      prompt: sent,
      maxOutputTokens: workload.maxOutputTokens,
      output: conversation ? AGENT_TOOL : (structuredProbe?.output ?? null),
      conversation,
      // The endpoint's own declared tier (decision 262): this endpoint's requests only.
      serviceTier: endpoint.serviceTier,
      deadlines: ctx.deadlines,
      fetch,
      awsCredentials: endpoint.protocol === 'bedrock-converse-stream' && spec.awsCredentialsAllowed ? resolveAwsCredentials(endpoint.region) : null,
      signal,
      extraHeaders: endpoint.probeHeaders,
      ...(streamId ? { recorder: streamId.recorder } : {}),
    });
    const loop = loopMonitor.stop();
    const id = streamId?.id();
    const delivered = id ? await fetchDeliveryReport(fetch, endpoint.baseUrl, id, undefined, probed.timingBound?.evidence ?? null) : null;
    return { measuredAt, result: probed, loop, delivered };
  };
  const write = async (
    jobKey: string,
    probed: Awaited<ReturnType<typeof probeOnce>>,
    target: { workloadId: number; promptHash: string; evidence?: Record<string, unknown> } = { workloadId: workload.id, promptHash },
    task: typeof fidelity = fidelity,
  ) => {
    const { measuredAt, loop, delivered } = probed;
    // agent turns are forced tool calls: the schema check of every structured probe (decision 261)
    const judged = structuredProbe || agent ? { ...judgeStructuredAnswer(probed.result), answerText: null } : judgeFidelityProbe(task, probed.result);
    // Answers must be answers (decision 171): a failed fidelity check, or the same answer as a recent
    // one of this endpoint to a different prompt, is not rankable.
    const r0 = probed.result;
    const answerSha256 =
      r0.outcome === 'success' ? hashAnswerText([r0.answerText, r0.reasoningText, ...r0.toolCalls.map((c) => c.arguments)].join('\n')) : null;
    const extraReasons: NotRankableReason[] = [];
    if (judged.fidelityPassed === false) extraReasons.push('fidelity_failed');
    if (answerSha256 && (await hasRepeatedAnswer(ctx.db, { endpointId: endpoint.id, answerSha256, promptHash: target.promptHash, before: measuredAt })))
      extraReasons.push('repeated_answer');
    const marked = withNotRankableReasons(r0, extraReasons);
    // the tier the response named against the one asked for (decision 293)
    const serviceTierMismatch = findServiceTierMismatch(endpoint.protocol, endpoint.serviceTier, marked.evidence.servedServiceTier);
    const result =
      answerSha256 || serviceTierMismatch
        ? { ...marked, evidence: { ...marked.evidence, ...(answerSha256 ? { answerSha256 } : {}), ...(serviceTierMismatch ? { serviceTierMismatch } : {}) } }
        : marked;
    // The clock's verdict is the measurement's own error bound (decision 181): `valid` is false
    // exactly when it is `timing_uncertain`; the loop-delay p99 is kept as evidence only.
    const timingUncertain = result.notRankableReasons.includes('timing_uncertain');
    const bound = toStoredTimingBound(result.timingBound);
    const itl = computeInterTokenLatency(result.timeline);
    return insertMeasurement(ctx.db, {
      jobKey,
      endpointId: endpoint.id,
      workloadId: target.workloadId,
      measuredAt,
      workerRegion: job.region,
      workerVersion: ctx.workerVersion,
      outcome: result.outcome,
      errorKind: result.errorKind,
      errorMessage: result.errorMessage,
      httpStatus: result.httpStatus,
      connectMs: result.connectMs,
      ttfbMs: result.ttfbMs,
      ttftMs: result.ttftMs,
      ttfatMs: result.ttfatMs,
      e2eMs: result.e2eMs,
      outputTokensReported: result.outputTokensReported,
      outputTokensO200k: result.outputTokensO200k,
      outputTokensPerSecond: result.outputTokensPerSecond,
      outputTokensPerSecondO200k: result.outputTokensPerSecondO200k,
      tpotMs: result.tpotMs,
      contentChunks: result.contentChunks,
      finishReason: result.finishReason,
      promptHash: target.promptHash,
      timeline: encodeTimeline(result.timeline),
      flags: result.flags,
      valid: !timingUncertain,
      invalidReason: timingUncertain ? describeTimingUncertain(result.timingBound) : null,
      eventLoopDelayP99Ms: loop.p99Ms,
      rankable: result.rankable,
      notRankableReasons: result.notRankableReasons,
      evidence: { ...result.evidence, ...(bound.timing ? { timing: bound.timing } : {}), ...(delivered ? { delivered } : {}), ...target.evidence },
      ttftBoundMs: bound.ttftBoundMs,
      e2eBoundMs: bound.e2eBoundMs,
      speedBoundPct: bound.speedBoundPct,
      retryAfterMs: result.retryAfterMs === null ? null : Math.round(result.retryAfterMs),
      itlP50Ms: itl.p50Ms,
      itlP95Ms: itl.p95Ms,
      ...judged,
      // the probe's own figure: the one its speed basis subtracted (decision 065)
      reasoningTokensHidden: result.reasoningTokensHidden,
      cachedInputTokens: result.cachedInputTokens ?? null,
      cacheWriteInputTokens: result.cacheWriteInputTokens ?? null,
      inputTokensReported: result.inputTokensReported ?? null,
      // Judged against the objective the endpoint declares now, at measurement (decision 263).
      tierObjectiveMet: judgeTierObjective(endpoint.tierObjective, { ...result, serviceTierMismatch }),
    });
  };

  if (agent) return runAgentConversation(ctx, job, agent, probeOnce, write);
  const first = await probeOnce();
  const written = await write(
    job.jobKey,
    first,
    lifetime ? { workloadId: workload.id, promptHash, evidence: { cacheLifetime: lifetime.evidence(first.measuredAt) } } : undefined,
  );
  let result = first.result;
  // A slot whose measurement failed ONLY on timing is probed once more at once (decision 181):
  // the first stays as evidence; the second, under its own key, may be ranked. Never for the cache
  // family: the same cold prompt again would be warm.
  // Up to MAX_TIMING_RETRIES times (decision 309): a busy start-up minute can cost two in a row,
  // and a slot with no rankable figure leaves the board empty for a whole minute. A fidelity
  // slot's re-probe sends the workload's ordinary prompt (its own secret draw) and is judged as an
  // ordinary probe: the check's verdict stays with the first run, counted once, and the slot still
  // gets its speed (the first slot of a fresh start is a fidelity probe on every workload).
  let plain: { prompt: string; promptHash: string } | null = null;
  for (let retry = 1; retry <= MAX_TIMING_RETRIES; retry++) {
    if (!(written && isOnlyTimingUncertain(result) && !pair && !structuredProbe && !lifetime && !signal?.aborted)) break;
    if (retry > 1) await new Promise((r) => setTimeout(r, TIMING_RETRY_PAUSE_MS));
    if (fidelity && !plain) plain = await buildWorkloadPrompt(drawPromptKey(), false);
    const again = await probeOnce(plain?.prompt ?? prompt);
    // never a fidelity verdict: a fidelity slot's re-probe is ordinary, any other slot had none
    await write(timingRetryKey(job.jobKey, retry), again, plain ? { workloadId: workload.id, promptHash: plain.promptHash } : undefined, null);
    result = again.result;
  }
  // The warm request of the cache family: same prefix, sent as soon as the cold one ended, written
  // under the warm workload with its own key (a retried job finds both keys taken: no double write).
  if (written && pair && family?.warmSlug && result.errorKind !== 'rate_limited' && !signal?.aborted) {
    const warmId = await getWorkloadId(ctx.db, family.warmSlug);
    if (warmId !== null) {
      const warm = await probeOnce(pair.warm.prompt);
      await write(`${job.jobKey}${CACHE_WARM_SUFFIX}`, warm, { workloadId: warmId, promptHash: pair.warm.promptHash });
      if (warm.result.errorKind === 'rate_limited') result = warm.result;
    }
  }
  if (result.errorKind === 'rate_limited' && result.retryAfterMs !== null) {
    await setEndpointNotBefore(ctx.db, endpoint.id, new Date(ctx.now().getTime() + result.retryAfterMs));
  }
  return { status: written ? 'recorded' : 'duplicate', outcome: result.outcome, errorKind: result.errorKind };
}

/** Job-key suffix of turn t ≥ 2 of an agent conversation (turn 1 has the job's key). */
export const agentTurnSuffix = (turn: number) => `:turn-${turn}`;

/**
 * The agent conversation (decision 267): turn 1 sends the task, each later turn the whole
 * conversation so far with the previous turn's tool call and its result in the protocol's own
 * shapes; each turn is one measurement of workload agent-turn-<t> (keys: the job's, then
 * `:turn-<t>`). The conversation stops at a turn that failed, was rate limited or made no call
 * that can be fed back (later turns are not sent: nothing is recorded for them, the stopped turn
 * is, with its fidelity verdict). No timing re-probe: a turn sent again would find itself cached.
 */
async function runAgentConversation(
  ctx: ProbeTaskContext,
  job: ProbeJobPayload,
  material: { task: string; toolResults: string[] },
  probeOnce: (sent?: string, conversation?: readonly ConversationMessage[] | null) => Promise<{ measuredAt: Date; result: ProbeResult }>,
  write: (jobKey: string, probed: never, target: { workloadId: number; promptHash: string; evidence?: Record<string, unknown> }) => Promise<boolean>,
): Promise<ProbeTaskResult> {
  const conversation: ConversationMessage[] = [{ role: 'user', text: material.task }];
  let firstWritten = false;
  let first: ProbeResult | null = null;
  let last: ProbeResult | null = null;
  for (let turn = 1; turn <= AGENT_TURNS; turn++) {
    const workloadId = turn === 1 ? job.workloadId : await getWorkloadId(ctx.db, `agent-turn-${turn}`);
    if (workloadId === null) break;
    const probed = await probeOnce(material.task, [...conversation]);
    const written = await write(turn === 1 ? job.jobKey : `${job.jobKey}${agentTurnSuffix(turn)}`, probed as never, {
      workloadId,
      promptHash: hashConversation(conversation),
      evidence: { agentTurn: { turn, messages: conversation.length } },
    });
    if (turn === 1) {
      firstWritten = written;
      first = probed.result;
    }
    last = probed.result;
    // a retried job finds turn 1 taken: it sends nothing more
    if (!written || probed.result.errorKind === 'rate_limited') break;
    const call = callToFeedBack(probed.result, turn);
    const toolResult = material.toolResults[turn - 1];
    if (!call || toolResult === undefined) break;
    conversation.push({ role: 'assistant', toolCall: call }, { role: 'tool', callId: call.id, name: call.name, result: toolResult });
  }
  if (last?.errorKind === 'rate_limited' && last.retryAfterMs !== null) {
    await setEndpointNotBefore(ctx.db, job.endpointId, new Date(ctx.now().getTime() + last.retryAfterMs));
  }
  return { status: firstWritten ? 'recorded' : 'duplicate', outcome: first?.outcome ?? 'error', errorKind: first?.errorKind ?? null };
}

/**
 * A cache-lifetime member's prompt and evidence (decision 268), null for any other workload, or why
 * it is not sent. The seed keys the series by its own slot; a check finds its predecessor's
 * measurement (at most its gap + 10 minutes old, successful, same prefix) and takes the series'
 * seed slot from its evidence, so a longer probe slot or a late job still finds its series.
 */
type LifetimeMember =
  { skip: 'series-broken' | 'no-secret' } | { built: ReturnType<typeof buildCacheLifetimePrompt>; evidence: (measuredAt: Date) => Record<string, unknown> };

async function prepareLifetimeMember(ctx: ProbeTaskContext, endpointId: number, slug: string, job: ProbeJobPayload): Promise<LifetimeMember | null> {
  let w;
  try {
    w = getWorkloadOrThrow(slug);
  } catch {
    return null;
  }
  if (w.cacheLifetimeGapMinutes === undefined) return null;
  if (!ctx.secretKey) return { skip: 'no-secret' as const };
  const now = ctx.now();
  let seedSlot = job.slotStart;
  let previousAt: Date | null = null;
  let expectedPrefix: string | null = null;
  if (w.seriesPreviousSlug) {
    const previousId = await getWorkloadId(ctx.db, w.seriesPreviousSlug);
    const prev =
      previousId === null
        ? null
        : await getLatestSeriesMeasurement(ctx.db, {
            endpointId,
            workloadId: previousId,
            region: job.region,
            since: new Date(now.getTime() - (w.cacheLifetimeGapMinutes + 10) * 60_000),
          });
    const series = (prev?.evidence as { cacheLifetime?: { seedSlot?: unknown; prefixSha256?: unknown } } | null)?.cacheLifetime;
    if (!prev || prev.outcome !== 'success' || typeof series?.seedSlot !== 'string' || typeof series.prefixSha256 !== 'string')
      return { skip: 'series-broken' as const };
    seedSlot = series.seedSlot;
    previousAt = prev.measuredAt;
    expectedPrefix = series.prefixSha256;
  }
  const built = buildCacheLifetimePrompt(slug, cacheLifetimeKey(ctx.secretKey, endpointId, seedSlot));
  if (expectedPrefix !== null && expectedPrefix !== built.prefixSha256) return { skip: 'series-broken' as const };
  return {
    built,
    /** the series' evidence of a member sent at `measuredAt`: its seed, its prefix, its real gap */
    evidence: (measuredAt: Date) => ({
      seedSlot,
      prefixSha256: built.prefixSha256,
      gapMinutes: w.cacheLifetimeGapMinutes,
      gapMs: previousAt ? measuredAt.getTime() - previousAt.getTime() : null,
    }),
  };
}

/** Job-key suffix of the warm request of a prompt-cache probe (the cold one has the job's key). */
export const CACHE_WARM_SUFFIX = ':warm';

/** The cache-family definition of the scheduled (cold) member `slug`, or null for any other workload. */
function cacheFamilyOf(slug: string) {
  if (!slug.startsWith('cache-')) return null;
  try {
    const w = getWorkloadOrThrow(slug);
    return w.cacheRole === 'cold' ? w : null;
  } catch {
    return null;
  }
}

/** The structured-family definition of `slug` (structured-json-1k, tool-call-1k), or null. */
function structuredFamilyOf(slug: string) {
  try {
    const w = getWorkloadOrThrow(slug);
    return w.outputKind ? w : null;
  } catch {
    return null;
  }
}

/** Job-key suffix of the first re-probe of a slot whose first measurement failed only on timing. */
export const TIMING_RETRY_SUFFIX = ':timing-retry';

/**
 * Re-probes of a slot whose measurements failed only on timing (decision 309): each costs the
 * provider one more generation, so few. Two is a margin, not a measured need: no slot here was
 * seen uncertain twice in a row; what emptied the fresh-start board was a fidelity slot that got
 * no re-probe at all.
 */
export const MAX_TIMING_RETRIES = 2;

/** Pause before a second re-probe, ms (a choice, not measured): a little time for a busy spell to pass. */
export const TIMING_RETRY_PAUSE_MS = 500;

/** The job key of re-probe `n` (1-based): `:timing-retry`, then `:timing-retry-2`. */
export function timingRetryKey(jobKey: string, n: number): string {
  return n === 1 ? `${jobKey}${TIMING_RETRY_SUFFIX}` : `${jobKey}${TIMING_RETRY_SUFFIX}-${n}`;
}

/** True when the only reason a result is not rankable is its timing bound. */
export function isOnlyTimingUncertain(result: Pick<ProbeResult, 'notRankableReasons'>): boolean {
  return result.notRankableReasons.length === 1 && result.notRankableReasons[0] === 'timing_uncertain';
}

/** The stored invalid_reason of a timing_uncertain measurement. */
function describeTimingUncertain(bound: TimingBound | undefined): string {
  if (!bound) return 'timing bound unknown';
  const v = (x: number | null, unit: string) => (x === null ? 'unknown' : `${x.toFixed(2)} ${unit}`);
  return `timing bound beyond the published accuracy: TTFT +${v(bound.ttftMs, 'ms')}, speed ±${v(bound.speedPct, '%')}`;
}
