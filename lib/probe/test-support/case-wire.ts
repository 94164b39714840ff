/**
 * The building blocks of hand-written replay cases (build-stream-cases.ts, build-variant-cases.ts):
 * timed writes (text or bytes, at ms since the request), the two response heads (SSE and AWS
 * event stream), Bedrock event-stream frames and exceptions as the service encodes them, and the
 * two common expectations (a clean success; a stream error with what came before it). A case
 * spells its own stream with these; the expectation states every figure the stream implies.
 */
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { ReplayExpect, ReplayWrite } from './replay-case';

/** The figures every expectation states; the rest default as below. */
type StatedFigures = Partial<ReplayExpect> & Pick<ReplayExpect, 'answer_text' | 'content_chunks' | 'ttft_ms' | 'last_token_ms' | 'e2e_ms'>;

/** A clean success finishing with stop, no reported count unless stated, TTFAT = TTFT unless stated. */
export const successExpect = (e: StatedFigures): ReplayExpect => ({
  outcome: 'success',
  error_kind: null,
  finish_reason: 'stop',
  output_tokens_reported: null,
  ttfat_ms: e.ttft_ms,
  ...e,
});

/** A stream_error failure (no finish reason) with the text that arrived before it. */
export const streamErrorExpect = (e: StatedFigures): ReplayExpect => ({
  outcome: 'error',
  error_kind: 'stream_error',
  finish_reason: null,
  output_tokens_reported: null,
  ttfat_ms: e.ttft_ms,
  ...e,
});

/** A UTF-8 write at `at_ms`. */
export const textWrite = (at_ms: number, utf8: string): ReplayWrite => ({ at_ms, utf8 });
/** A binary write at `at_ms` (stored as base64). */
export const bytesWrite = (at_ms: number, bytes: Uint8Array): ReplayWrite => ({ at_ms, base64: Buffer.from(bytes).toString('base64') });

/** HTTP 200 with an SSE body (OpenAI, Anthropic, Gemini streams). */
export const SSE_RESPONSE = { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } };
/** HTTP 200 with an AWS event-stream body (Bedrock ConverseStream). */
export const BEDROCK_RESPONSE = { status: 200, headers: { 'content-type': 'application/vnd.amazon.eventstream' } };

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const str = (value: string) => ({ type: 'string' as const, value });

/** One Bedrock event frame of `eventType` with a JSON payload (and the `p` padding field Bedrock adds). */
export const bedrockFrame = (eventType: string, payload: unknown) =>
  codec.encode({
    headers: { ':event-type': str(eventType), ':content-type': str('application/json'), ':message-type': str('event') },
    body: fromUtf8(JSON.stringify({ ...(payload as object), p: 'abcdef' })),
  });

/** One Bedrock exception frame (e.g. throttlingException) with its message. */
export const bedrockException = (type: string, message: string) =>
  codec.encode({
    headers: { ':exception-type': str(type), ':content-type': str('application/json'), ':message-type': str('exception') },
    body: fromUtf8(JSON.stringify({ message })),
  });
