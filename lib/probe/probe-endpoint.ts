/**
 * probeEndpoint: one streamed request to one endpoint, measured.
 *
 * Clock: performance.now() (monotonic). Request start is the moment undici writes the request's
 * headers (found through node:diagnostics_channel, see ./request-timing.ts), i.e. just before the
 * request is written on an open connection; `connectMs` is the set-up time of a new connection
 * (0 when reused). With a fetch that is not undici the start falls back to the fetch() call and
 * connectMs is null. Deadlines run from the fetch() call (slightly stricter).
 *
 * Deadlines (ProbeRequest.deadlines), each ending the probe as `timeout`:
 * - ttftMs: from request start until the first token-bearing event;
 * - idleMs: from the first token on, the longest gap since the last token-bearing event
 *   (comments, keep-alives, role/empty/usage chunks do NOT reset it, so a server that stalls
 *   while pinging is caught);
 * - totalMs: from request start to the end of the stream.
 * maxBytes caps the body (`stream_error`). A hung server therefore always ends, as `timeout`,
 * with its partial timeline recorded.
 *
 * Error kinds (never thrown; every outcome is a ProbeResult): invalid_url (unparsable or non
 * http(s) URL, or the guard said so), blocked (SSRF guard refused), rate_limited (HTTP 429 with
 * retryAfterMs from Retry-After, or an in-stream throttling error), http_error (other non-2xx;
 * also a connection that failed before any HTTP response, with httpStatus null), stream_error
 * (in-stream error, cut stream, unparsable body, byte cap), empty (clean stream, no tokens),
 * timeout, cancelled (req.signal aborted).
 */
import { getAdapter } from './adapters/registry';
import { clientHeaders } from './client-headers';
import { buildFailedProbeResult, buildProbeResult, type ProbeAbort } from './build-probe-result';
import { runInSlice } from './parse-scheduler';
import { readAndParse } from './stamped-read';
import { trackRequestTiming, type RequestTiming } from './request-timing';
import { withNotRankableReasons } from './rankability';
import { gcPauseMsBetween, readNetWaitMs, readRunQueueMs } from './stamp-lateness';
import { computeTimingBound, isTimingCertain } from './timing-bound';
import type { StampedReadResult } from './stamped-read';
import { classifyInStreamError, summarizeErrorText } from './adapters/normalize';
import { redactProbeText, redactStoredStrings } from './redact';
import { parseRetryAfterMs, parseRetryHintMs } from './retry-after';
import type { ProbeRecorder, ProbeRequest, ProbeResult } from './types';

/**
 * After a stream declared completion (finish reason, messageStop...), this much silence (ms,
 * keep-alives and comments do not count) ends it as a whole answer: a server that never closes
 * must not hold a worker until the idle deadline (F05).
 */
export const COMPLETION_GRACE_MS = 2_000;
/** At most this often onProgress is called, ms. */
const PROGRESS_INTERVAL_MS = 250;
/** How much of an HTTP error body we keep to summarise into errorMessage. */
const ERROR_BODY_BYTES = 8192;
/** An error body longer than this is not read to its end (e2eMs stays null). */
const MAX_ERROR_BODY_BYTES = 1024 * 1024;

/**
 * Probes one endpoint and returns what it observed. Never throws for endpoint failures (only for
 * programming errors such as an unknown protocol). All times in the result are ms since request
 * start on the monotonic clock.
 */
export async function probeEndpoint(req: ProbeRequest): Promise<ProbeResult> {
  // Every string of the result (answer text, error message, finish reason, evidence) is redacted of
  // the request's secrets and the configured ones before anyone can store it (issue 19 #12).
  return redactStoredStrings(await probeEndpointUnredacted(req), [req.apiKey, req.awsCredentials?.secretAccessKey, req.awsCredentials?.sessionToken]);
}

async function probeEndpointUnredacted(req: ProbeRequest): Promise<ProbeResult> {
  const urlProblem = checkUrl(req.url);
  if (urlProblem) return buildFailedProbeResult('invalid_url', urlProblem);
  const adapter = getAdapter(req.protocol);
  let built;
  try {
    built = adapter.buildRequest({
      url: req.url,
      model: req.model,
      apiKey: req.apiKey,
      prompt: req.prompt,
      maxOutputTokens: req.maxOutputTokens,
      awsCredentials: req.awsCredentials ?? null,
      serviceTier: req.serviceTier ?? null,
      output: req.output ?? null,
      conversation: req.conversation ?? null,
    });
  } catch (error) {
    return buildFailedProbeResult('invalid_url', `cannot build request URL: ${(error as Error).message}`);
  }
  const secrets = [req.apiKey, req.awsCredentials?.secretAccessKey, req.awsCredentials?.sessionToken];
  const redact = (text: string | null) => (text ? redactProbeText(text, secrets) : text);

  const controller = new AbortController();
  let abort: ProbeAbort | null = null;
  const stop = (reason: ProbeAbort) => {
    if (abort) return;
    abort = reason;
    controller.abort(new Error(reason.message));
  };
  const onCallerAbort = () => stop({ kind: 'cancelled', message: 'the caller cancelled the probe' });
  if (req.signal?.aborted) return buildFailedProbeResult('cancelled', 'the caller cancelled the probe');
  req.signal?.addEventListener('abort', onCallerAbort, { once: true });

  const { ttftMs: ttftDeadline, idleMs, totalMs, maxBytes } = req.deadlines;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(
      () => {
        timers.delete(t);
        fn();
      },
      Math.max(0, ms),
    );
    timers.add(t);
    return t;
  };

  // Provisional request start: the fetch() call; moved to the moment the headers are written as
  // soon as undici reports it (always before the first response byte).
  const requestTiming = trackRequestTiming();
  const runQueueAtStart = readRunQueueMs();
  const netWaitAtStart = readNetWaitMs();
  let t0 = performance.now();
  const rebase = () => {
    if (requestTiming.sentAt !== null) t0 = requestTiming.sentAt;
  };
  const clock = () => performance.now() - t0;
  later(totalMs, () => stop({ kind: 'timeout', message: `total deadline of ${totalMs} ms exceeded` }));
  const ttftTimer = later(ttftDeadline, () => {
    flushParse();
    if (lastTokenAt < 0) stop({ kind: 'timeout', message: `no token within the TTFT deadline of ${ttftDeadline} ms` });
  });

  // Parsing runs behind the reads (./stamped-read.ts): a deadline first parses what has arrived,
  // so a token that is read but not yet parsed is never taken for silence.
  let flushParse = () => {};
  let lastTokenAt = -1;
  const checkIdle = () => {
    flushParse();
    const gap = clock() - lastTokenAt;
    if (gap >= idleMs) stop({ kind: 'timeout', message: `no token for ${idleMs} ms (idle deadline)` });
    else later(idleMs - gap, checkIdle);
  };
  const onTokenEvent = (atMs: number) => {
    if (lastTokenAt < 0) {
      clearTimeout(ttftTimer);
      timers.delete(ttftTimer);
      later(idleMs, checkIdle);
    }
    lastTokenAt = atMs;
  };

  const cleanup = () => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    req.signal?.removeEventListener('abort', onCallerAbort);
    requestTiming.dispose();
  };

  try {
    let response: Response;
    try {
      // An ordinary client's headers, nothing of our own (issue 20, decision 174): the official SDK's
      // user agent and its fixed headers (./client-headers.ts), fetch's own defaults for the rest
      // (accept-encoding included: an SDK does not ask for identity). The probe finds its request
      // by its async context (./request-timing.ts), not by a mark. The adapter's headers (auth,
      // content type, protocol version) win over the SDK set; an operator's per-endpoint headers
      // (e.g. where a provider's terms ask probes to say so) are added last.
      const headers = { ...clientHeaders(req.protocol, built.init.headers), ...(req.extraHeaders ?? {}) };
      response = await runInSlice(() => requestTiming.run(() => req.fetch(built.url, { ...built.init, headers, signal: controller.signal })));
    } catch (error) {
      const failure = abort as ProbeAbort | null;
      if (failure) return buildFailedProbeResult(failure.kind, failure.message);
      const kind = (error as { kind?: unknown })?.kind;
      if (kind === 'blocked' || kind === 'invalid_url') {
        return buildFailedProbeResult(kind, redact(describe(error)) ?? kind);
      }
      return buildFailedProbeResult('http_error', redact(`no HTTP response: ${describe(error)}`)!);
    }
    rebase();
    // The response head's parse time when undici reported it, else now (fetch just resolved).
    const ttfbMs = requestTiming.headersAt !== null ? requestTiming.headersAt - t0 : clock();
    const connectMs = requestTiming.connectMs;
    const httpStatus = response.status;
    req.recorder?.onResponse(httpStatus, response.headers, ttfbMs);

    const contentType = response.headers.get('content-type') ?? '';
    if (!response.ok || /^\s*text\/html/i.test(contentType)) {
      // A failed response (or an HTML page where a stream should be) is read to its end: E2E is the
      // end of its body; the message is the server's own, summarised and redacted.
      const body = await readErrorBody(response, controller.signal, clock, req.recorder);
      const summary = summarizeErrorText(body.text);
      const retryAfterMs = parseRetryAfterMs(response.headers) ?? parseRetryHintMs(body.text);
      let kind: 'rate_limited' | 'http_error' | 'stream_error';
      if (!response.ok) kind = httpStatus === 429 ? 'rate_limited' : 'http_error';
      else kind = classifyInStreamError(summary).kind;
      const message = response.ok
        ? `HTTP ${httpStatus} with an HTML page instead of a stream: ${summary.replace(/^HTML page: /, '')}`
        : `HTTP ${httpStatus}${summary ? `: ${summary}` : ''}`;
      return buildFailedProbeResult(kind, redact(message)!, { httpStatus, ttfbMs, connectMs, retryAfterMs, bytesReceived: body.bytes, e2eMs: body.endMs });
    }
    if (!response.body) return buildFailedProbeResult('stream_error', 'HTTP 2xx without a body', { httpStatus, ttfbMs });

    let lastProgressAt = -Infinity;
    let completionWatch = false;
    // Read stamps from the socket line up with the bytes only when the body is not re-encoded
    // (otherwise each decoded chunk gets the latest read's stamp, an upper bound).
    const encoding = (response.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
    const reading = readAndParse({
      protocol: req.protocol,
      body: response.body,
      signal: controller.signal,
      toMs: (now) => now - t0,
      stamps: requestTiming,
      bytesAlign: encoding === 'identity' || encoding === '',
      recorder: req.recorder,
      maxBytes,
      onTokenEvent,
      onRead: (state, atMs) => {
        if (state.complete && !completionWatch) {
          // The answer declared completion: wait at most COMPLETION_GRACE_MS of silence (keep-alives
          // do not count) for the rest (usage, [DONE], the close), then end it as a whole answer.
          completionWatch = true;
          const check = () => {
            flushParse();
            const quietMs = clock() - (state.lastDataEventMs ?? atMs);
            if (quietMs >= COMPLETION_GRACE_MS) stop({ kind: 'timeout', message: 'the answer was complete but the server kept the connection open' });
            else later(COMPLETION_GRACE_MS - quietMs, check);
          };
          later(COMPLETION_GRACE_MS, check);
        }
        if (!req.onProgress || atMs - lastProgressAt < PROGRESS_INTERVAL_MS) return;
        lastProgressAt = atMs;
        req.onProgress({
          generatedEvents: state.events.length,
          approxTokens: state.outputTokensReported ?? Math.round(state.generatedChars / 4),
          elapsedMs: atMs,
        });
      },
    });
    flushParse = reading.flush;
    const parsed = await reading.result;
    // Tokenizing and building the result run in a scheduler slice, not all at once with every
    // other stream that ended in the same moment (./parse-scheduler.ts).
    const result = await runInSlice(() =>
      buildProbeResult(parsed, {
        protocol: req.protocol,
        httpStatus,
        ttfbMs,
        connectMs,
        abort,
        retryAfterMs: parseRetryAfterMs(response.headers),
        // ~4 characters per token: the prefill allowance of the plausible-delivery model needs only its size.
        inputTokens: Math.ceil(req.prompt.length / 4),
        maxOutputTokens: req.maxOutputTokens,
        // a forced tool (tool-call workloads, agent turns) or a conversation of tool calls declares one
        toolsDeclared: req.output?.kind === 'tool_call' || (req.conversation ?? []).some((m) => m.role !== 'user'),
      }),
    );
    result.errorMessage = redact(result.errorMessage);
    // The error bound (decision 180) and, beyond the published accuracy, timing_uncertain (181).
    const bounded = attachTimingBound(result, parsed, requestTiming, t0, runQueueAtStart, netWaitAtStart);
    Object.assign(result, bounded);
    // An in-stream rate limit may name its back-off in words ("try again in 2s").
    if (result.errorKind === 'rate_limited' && result.retryAfterMs === null && result.errorMessage) {
      result.retryAfterMs = parseRetryHintMs(result.errorMessage);
    }
    return result;
  } finally {
    cleanup();
  }
}

/**
 * The result with its timing bound (lib/probe/timing-bound.ts) and, when the bound is unknown or
 * beyond TIMING_BOUND_LIMITS for a successful probe, the reason `timing_uncertain`. Lateness per
 * stamp comes from the socket reads (RequestTiming.readLateness) and the reader's own stamps; a
 * content-encoded body ('socket-latest': a decoded chunk may come from an earlier read) has none.
 */
function attachTimingBound(
  result: ProbeResult,
  parsed: StampedReadResult,
  timing: RequestTiming,
  t0: number,
  runQueueAtStart: number | null,
  netWaitAtStart: number | null,
): ProbeResult {
  const lateness = new Map<number, number>();
  if (parsed.stampSource !== 'socket-latest') {
    if (parsed.stampSource === 'socket') timing.readStamps.forEach((x, i) => lateness.set(x - t0, timing.readLateness[i] ?? Number.POSITIVE_INFINITY));
    for (const [x, l] of timing.readerLateness) if (!lateness.has(x - t0)) lateness.set(x - t0, l);
  }
  const runQueueNow = readRunQueueMs();
  const netWaitNow = readNetWaitMs();
  const endMs = result.e2eMs ?? result.lastTokenMs ?? performance.now() - t0;
  const timingBound = computeTimingBound({
    ttftMs: result.ttftMs,
    ttfatMs: result.ttfatMs,
    lastTokenMs: result.lastTokenMs,
    e2eMs: result.e2eMs,
    timeline: result.timeline,
    latenessAt: (atMs) => lateness.get(atMs),
    startSlackMs: timing.sentAt === null ? null : timing.startSlackMs,
    requestStartEpochMs: timing.sentAt === null ? null : performance.timeOrigin + timing.sentAt,
    runQueueMs: runQueueAtStart === null || runQueueNow === null ? null : runQueueNow - runQueueAtStart,
    netWaitMs: netWaitAtStart === null || netWaitNow === null ? null : netWaitNow - netWaitAtStart,
    gcPauseMs: gcPauseMsBetween(t0, t0 + endMs),
  });
  const withBound = { ...result, timingBound };
  return isTimingCertain(result, timingBound) ? withBound : withNotRankableReasons(withBound, ['timing_uncertain']);
}

/** Null when `url` is an absolute http(s) URL, else the reason. */
function checkUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `not a valid URL: ${JSON.stringify(url.slice(0, 200))}`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `unsupported URL scheme ${parsed.protocol} (http and https only)`;
  return null;
}

/**
 * The body's reads as an async iterable that also ends when `signal` aborts, even with a
 * fetch implementation that ignores signals once the body is streaming: the abort cancels the
 * reader (which settles a pending read) and the loop then throws the abort reason. No per-read
 * promise racing: this loop runs for every network read of every concurrent probe. Cancels the
 * body when the consumer stops early (terminal marker, byte cap).
 */
async function* readChunks(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  clock: () => number,
  recorder: ProbeRecorder | undefined,
): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  const onAbort = () => {
    reader.cancel(signal.reason).catch(() => {});
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    while (true) {
      if (signal.aborted) throw signal.reason ?? new Error('aborted');
      const next = await reader.read();
      if (signal.aborted) throw signal.reason ?? new Error('aborted');
      if (next.done) return;
      recorder?.onBytes(next.value, clock());
      yield next.value;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    reader.cancel().catch(() => {});
  }
}

/**
 * Reads an error body to its end (at most MAX_ERROR_BODY_BYTES; more is discarded, still read):
 * its first ERROR_BODY_BYTES as text, the byte count, and `endMs`, the clock at its end, or null
 * when reading failed or was aborted (a cut or hung body has no end).
 */
async function readErrorBody(
  response: Response,
  signal: AbortSignal,
  clock: () => number,
  recorder: ProbeRecorder | undefined,
): Promise<{ text: string; bytes: number; endMs: number | null }> {
  if (!response.body) return { text: '', bytes: 0, endMs: clock() };
  const parts: Uint8Array[] = [];
  let kept = 0;
  let bytes = 0;
  let endMs: number | null = null;
  try {
    for await (const chunk of readChunks(response.body, signal, clock, recorder)) {
      bytes += chunk.length;
      if (kept < ERROR_BODY_BYTES) {
        parts.push(chunk.subarray(0, ERROR_BODY_BYTES - kept));
        kept += Math.min(chunk.length, ERROR_BODY_BYTES - kept);
      }
      if (bytes > MAX_ERROR_BODY_BYTES) break;
    }
    if (bytes <= MAX_ERROR_BODY_BYTES) endMs = clock();
  } catch {
    // a body cut short still gives us what arrived
  }
  const all = new Uint8Array(kept);
  let offset = 0;
  for (const p of parts) {
    all.set(p, offset);
    offset += p.length;
  }
  return { text: new TextDecoder().decode(all), bytes, endMs };
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}
