/**
 * Task: probe (one job per endpoint × workload × region × slot).
 * Claims the slot, builds the slot's prompt, streams one request through the SSRF-guarded fetch,
 * and appends exactly one measurement, failure or success. A 429 with Retry-After pushes the
 * endpoint's next slot back. The API key is decrypted here and nowhere else, and never logged.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '@/db/client';
import { claimProbeSlot, hasRepeatedAnswer, insertMeasurement, setEndpointNotBefore } from '@/db/queries/measurements';
import { getProbeSpec } from '@/db/queries/probe-targets';
import { readApiKeyVariable } from '@/lib/env';
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
import { buildPrompt } from '@/lib/probe/workloads';
import type { LoopDelayMonitor } from '@/lib/probe/loop-delay-monitor';
import { decryptSecret } from '@/lib/security/secrets';
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
 * ('endpoint-sweeping', set by the probe queue in workers/scheduled-probe.ts, never by runProbeJob).
 */
export type ProbeTaskResult =
  | { status: 'skipped'; reason: 'slot-claimed' | 'gone' | 'endpoint-sweeping' }
  | { status: 'recorded' | 'duplicate'; outcome: 'success' | 'error'; errorKind: string | null };

/** Runs one probe job. Never throws for endpoint failures (those are measurements); throws on DB errors. */
export async function runProbeJob(ctx: ProbeTaskContext, bossJobId: string, job: ProbeJobPayload, signal?: AbortSignal): Promise<ProbeTaskResult> {
  const claimed = await claimProbeSlot(ctx.db, { jobKey: job.jobKey, bossJobId, workerId: ctx.workerId });
  if (!claimed) return { status: 'skipped', reason: 'slot-claimed' };
  const spec = await getProbeSpec(ctx.db, job.endpointId, job.workloadId);
  if (!spec) return { status: 'skipped', reason: 'gone' };
  const { endpoint, workload } = spec;

  // The operator's environment credentials only for catalog endpoints (db/queries/probe-targets.ts).
  const apiKey = resolveApiKey(endpoint, ctx.secretKey, spec.operatorCredentials);
  const spec0 = { slug: workload.slug, category: workload.category, inputTokensTarget: workload.inputTokensTarget, maxOutputTokens: workload.maxOutputTokens };
  // The prompt (and a fidelity task's access code and expected answer) is keyed by the slot AND
  // 128 secret random bits drawn for this request (decision 173): nothing public (the slot time,
  // the repository's code) predicts it, so no endpoint can precompute an answer or recognise a probe.
  const promptKey = `${job.slotStart}\u0000${randomBytes(16).toString('hex')}`;
  const { prompt, promptHash, fidelity } = ctx.promptBuilder
    ? await ctx.promptBuilder.build(spec0, promptKey, { fidelity: job.fidelity === true })
    : buildPrompt(spec0, promptKey, { fidelity: job.fidelity === true });
  const probeOnce = async () => {
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
      prompt,
      maxOutputTokens: workload.maxOutputTokens,
      deadlines: ctx.deadlines,
      fetch,
      awsCredentials: endpoint.protocol === 'bedrock-converse-stream' && spec.awsCredentialsAllowed ? resolveAwsCredentials(endpoint.region) : null,
      signal,
      ...(streamId ? { recorder: streamId.recorder } : {}),
    });
    const loop = loopMonitor.stop();
    const id = streamId?.id();
    const delivered = id ? await fetchDeliveryReport(fetch, endpoint.baseUrl, id) : null;
    return { measuredAt, result: probed, loop, delivered };
  };
  const write = async (jobKey: string, probed: Awaited<ReturnType<typeof probeOnce>>) => {
    const { measuredAt, loop, delivered } = probed;
    const judged = judgeFidelityProbe(fidelity, probed.result);
    // Answers must be answers (decision 171): a failed fidelity check, or the same answer as a recent
    // one of this endpoint to a different prompt, is not rankable.
    const r0 = probed.result;
    const answerSha256 = r0.outcome === 'success' ? hashAnswerText([r0.answerText, r0.reasoningText, ...r0.toolCalls.map((c) => c.arguments)].join('\n')) : null;
    const extraReasons: NotRankableReason[] = [];
    if (judged.fidelityPassed === false) extraReasons.push('fidelity_failed');
    if (answerSha256 && (await hasRepeatedAnswer(ctx.db, { endpointId: endpoint.id, answerSha256, promptHash, before: measuredAt }))) extraReasons.push('repeated_answer');
    const marked = withNotRankableReasons(r0, extraReasons);
    const result = answerSha256 ? { ...marked, evidence: { ...marked.evidence, answerSha256 } } : marked;
    // The clock's verdict is the measurement's own error bound (decision 181): `valid` is false
    // exactly when it is `timing_uncertain`; the loop-delay p99 is kept as evidence only.
    const timingUncertain = result.notRankableReasons.includes('timing_uncertain');
    const bound = toStoredTimingBound(result.timingBound);
    const itl = computeInterTokenLatency(result.timeline);
    return insertMeasurement(ctx.db, {
      jobKey,
      endpointId: endpoint.id,
      workloadId: workload.id,
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
      promptHash,
      timeline: encodeTimeline(result.timeline),
      flags: result.flags,
      valid: !timingUncertain,
      invalidReason: timingUncertain ? describeTimingUncertain(result.timingBound) : null,
      eventLoopDelayP99Ms: loop.p99Ms,
      rankable: result.rankable,
      notRankableReasons: result.notRankableReasons,
      evidence: { ...result.evidence, ...(bound.timing ? { timing: bound.timing } : {}), ...(delivered ? { delivered } : {}) },
      ttftBoundMs: bound.ttftBoundMs,
      e2eBoundMs: bound.e2eBoundMs,
      speedBoundPct: bound.speedBoundPct,
      retryAfterMs: result.retryAfterMs === null ? null : Math.round(result.retryAfterMs),
      itlP50Ms: itl.p50Ms,
      itlP95Ms: itl.p95Ms,
      ...judged,
      // the probe's own figure: the one its speed basis subtracted (decision 065)
      reasoningTokensHidden: result.reasoningTokensHidden,
    });
  };

  const first = await probeOnce();
  const written = await write(job.jobKey, first);
  let result = first.result;
  // A slot whose measurement failed ONLY on timing is probed once more at once (decision 181):
  // the first stays as evidence; the second, under its own key, may be ranked. Not a fidelity
  // probe: its verdict was the point of the slot, and a second one would count the check twice.
  if (written && isOnlyTimingUncertain(result) && !fidelity && !signal?.aborted) {
    const again = await probeOnce();
    await write(`${job.jobKey}${TIMING_RETRY_SUFFIX}`, again);
    result = again.result;
  }
  if (result.errorKind === 'rate_limited' && result.retryAfterMs !== null) {
    await setEndpointNotBefore(ctx.db, endpoint.id, new Date(ctx.now().getTime() + result.retryAfterMs));
  }
  return { status: written ? 'recorded' : 'duplicate', outcome: result.outcome, errorKind: result.errorKind };
}

/** Job-key suffix of the one re-probe of a slot whose first measurement failed only on timing. */
export const TIMING_RETRY_SUFFIX = ':timing-retry';

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

/**
 * AWS credentials for Bedrock endpoints from the usual variables (AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, optional AWS_SESSION_TOKEN); null when incomplete, so the probe records
 * the provider's 403 as an http_error instead of guessing.
 */
function resolveAwsCredentials(region: string | null) {
  const accessKeyId = readApiKeyVariable('AWS_ACCESS_KEY_ID');
  const secretAccessKey = readApiKeyVariable('AWS_SECRET_ACCESS_KEY');
  if (!accessKeyId || !secretAccessKey) return null;
  return { accessKeyId, secretAccessKey, sessionToken: readApiKeyVariable('AWS_SESSION_TOKEN'), region };
}

/** The endpoint's API key: a submitted key (decrypted) or, for catalog endpoints only, the seeded endpoint's variable. */
function resolveApiKey(
  endpoint: { apiKeyEncrypted: string | null; apiKeyEnv: string | null },
  secretKey: Buffer | null,
  operatorCredentials: boolean,
): string | null {
  if (endpoint.apiKeyEncrypted) {
    if (!secretKey) throw new Error('endpoint has an encrypted API key but TOKENPACE_SECRET_KEY is not configured');
    return decryptSecret(endpoint.apiKeyEncrypted, secretKey);
  }
  return operatorCredentials && endpoint.apiKeyEnv ? readApiKeyVariable(endpoint.apiKeyEnv) : null;
}
