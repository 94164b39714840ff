/**
 * `tokenpace probe --record FILE`: turns one live probe into a replay case file (the format of
 * ./case-file.ts and ../../shared cases) so a stream the probe cannot parse becomes a test case a
 * user or provider can attach to a bug report (issue 9 item 6, decision 064).
 *
 * What is kept: the status, the response headers (minus hop-by-hop, cookies and anything naming
 * a credential), every body read exactly as it arrived (after content decoding: fetch has already
 * gunzipped a compressed stream, so `content-encoding` is dropped) with its arrival time in ms
 * since request start, rounded, and how the stream ended. What is redacted: the prompt (replaced
 * everywhere it appears in text writes, and never written to `request`), the API key and AWS
 * secrets, and anything that looks like a credential (lib/probe/redact). Binary writes (Bedrock
 * event-stream frames) are kept byte-exact, since rewriting them would break their checksums; they
 * carry no request echo. The `expect` block is what this probe reported, for the person filing the
 * report to correct where the probe was wrong.
 */
import { redactProbeText } from '../redact';
import type { ProbeDeadlines, ProbeRecorder, ProbeResult, Protocol } from '../types';
import type { ReplayCase, ReplayExpect, ReplayWrite } from './case-file';

/** Placeholder for the prompt in a recorded case. */
export const REDACTED_PROMPT = '[PROMPT REDACTED]';

/** Response headers never written to a case. */
const DROPPED_HEADERS = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'set-cookie',
  'cookie',
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
  'date',
]);

/** Input of {@link createCaseRecorder}. */
export interface CaseRecorderOptions {
  protocol: Protocol;
  model: string;
  /** the probed URL: only its path is written */
  url: string;
  prompt: string;
  maxOutputTokens: number;
  /** secrets to redact (API key, AWS secret and session token) */
  secrets: readonly (string | null | undefined)[];
  deadlines: ProbeDeadlines;
}

/** A recorder to pass as ProbeRequest.recorder, and `toCase` to build the file after the probe. */
export interface CaseRecorder extends ProbeRecorder {
  /** The case of the recorded probe; `id` defaults to `R01`. Pure. */
  toCase(result: ProbeResult, options?: { id?: string; about?: string }): ReplayCase;
}

/** Creates a recorder (see the module docstring for what is kept and redacted). */
export function createCaseRecorder(options: CaseRecorderOptions): CaseRecorder {
  let status = 0;
  let headers: Record<string, string> = {};
  const reads: Array<{ bytes: Uint8Array; atMs: number }> = [];
  const redact = (text: string) => redactProbeText(options.prompt ? text.split(options.prompt).join(REDACTED_PROMPT) : text, options.secrets);

  return {
    onResponse(httpStatus, responseHeaders) {
      status = httpStatus;
      headers = {};
      responseHeaders.forEach((value, name) => {
        const key = name.toLowerCase();
        if (!DROPPED_HEADERS.has(key)) headers[key] = redact(value);
      });
    },
    onBytes(bytes, atMs) {
      reads.push({ bytes: new Uint8Array(bytes), atMs });
    },
    toCase(result, caseOptions = {}) {
      const binary = options.protocol === 'bedrock-converse-stream';
      const writes = toWrites(reads, binary, redact);
      const path = safePath(options.url);
      const end: ReplayCase['end'] =
        result.errorKind === 'timeout' || result.errorKind === 'cancelled'
          ? 'hang'
          : result.errorKind === 'stream_error' && /cut before its terminal marker/.test(result.errorMessage ?? '')
            ? 'reset'
            : 'close';
      const hangDeadlines = end === 'hang' ? { deadlines: { ...options.deadlines } } : undefined;
      return {
        id: caseOptions.id ?? 'R01',
        kind: 'recorded',
        protocol: options.protocol,
        about:
          caseOptions.about ??
          'Recorded with `tokenpace probe --record`. The expect block is what the probe reported; correct it where the probe was wrong before filing the case.',
        source: `recorded by tokenpace probe --record on ${new Date().toISOString().slice(0, 10)}`,
        request: { model: options.model, stream: true, max_tokens: options.maxOutputTokens, path, prompt: REDACTED_PROMPT },
        response: { status: status || (result.httpStatus ?? 0), headers },
        writes,
        end,
        expect: expectOf(result),
        tolerance_ms: 25,
        ...(hangDeadlines ? { probe: hangDeadlines } : {}),
      };
    },
  };
}

/** One write per read; text when the read is whole UTF-8 (and the protocol is not binary), else base64. */
function toWrites(reads: Array<{ bytes: Uint8Array; atMs: number }>, binary: boolean, redact: (t: string) => string): ReplayWrite[] {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return reads.map(({ bytes, atMs }) => {
    const at_ms = Math.max(0, Math.round(atMs));
    if (!binary) {
      try {
        const text = decoder.decode(bytes);
        // A read ending inside a character decodes with an error under `fatal`: kept as bytes.
        return { at_ms, utf8: redact(text) };
      } catch {
        // not whole UTF-8: fall through
      }
    }
    return { at_ms, base64: Buffer.from(bytes).toString('base64') };
  });
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

const round = (v: number | null) => (v === null ? null : Math.round(v));

/** The case `expect` block of a probe result (what this probe reported). Pure. */
export function expectOf(r: ProbeResult): ReplayExpect {
  return {
    outcome: r.outcome,
    error_kind: r.errorKind,
    answer_text: r.answerText,
    ...(r.reasoningText !== '' ? { reasoning_text: r.reasoningText } : {}),
    ...(r.toolCalls.length > 0 ? { tool_calls: r.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) } : {}),
    finish_reason: r.finishReason,
    content_chunks: r.contentChunks,
    output_tokens_reported: r.outputTokensReported,
    ttft_ms: round(r.ttftMs),
    ttfat_ms: round(r.ttfatMs),
    last_token_ms: round(r.lastTokenMs),
    e2e_ms: round(r.e2eMs),
    http_status: r.httpStatus,
    retry_after_ms: r.retryAfterMs,
    token_count_mismatch: r.flags.tokenCountMismatch,
    buffered: r.flags.buffered,
    // timing_uncertain is this run's clock verdict (decision 181), not a property of the stream:
    // a replay is judged on its own bound.
    rankable: streamReasons(r).length === 0,
    not_rankable_reasons: streamReasons(r),
    ...(r.evidence.unrecognizedPaths?.length ? { unrecognized_paths: [...r.evidence.unrecognizedPaths] } : {}),
  };
}

/** The not-rankable reasons a stream itself causes: all but timing_uncertain. */
function streamReasons(r: ProbeResult): ProbeResult['notRankableReasons'] {
  return r.notRankableReasons.filter((x) => x !== 'timing_uncertain');
}
