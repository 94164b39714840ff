/**
 * Amazon Bedrock ConverseStream: `POST {base}/model/{modelId}/converse-stream`, answered with AWS
 * event-stream binary frames (see ../framing/event-stream-framer.ts), one JSON payload per frame.
 *
 * Frames: `messageStart`, `contentBlockStart` (opens a toolUse), `contentBlockDelta` (delta.text,
 * delta.reasoningContent.text, delta.toolUse.input: the token-bearing ones), `contentBlockStop`,
 * `messageStop` (stopReason; the answer is complete), then `metadata` with usage.outputTokens and
 * metrics.latencyMs (the terminal frame); an outputTokens that is not a non-negative integer is
 * unrecognised. A failure stated beside a clean stopReason fails the probe: the model's own stop
 * reason in `messageStop.additionalModelResponseFields` naming a filter or failure, or a
 * `metadata.trace.guardrail` whose assessments say the guardrail intervened (BLOCKED). Text in
 * `contentBlockStart.start` outside `toolUse` is unrecognised. Usage has no reasoning breakdown; redacted reasoning
 * (`reasoningContent.redactedContent`) is flagged as withheld (decision 065). `:message-type: exception` frames carry
 * `:exception-type` (throttlingException → rate_limited; modelStreamErrorException,
 * internalServerException, serviceUnavailableException, validationException → stream_error).
 *
 * Authentication: an API key is sent as `Authorization: Bearer` (Bedrock API keys); otherwise,
 * when AWS credentials are given (ProbeRequest.awsCredentials), the request is SigV4-signed
 * (service `bedrock`); otherwise it is sent unsigned (useful only against local fakes). An "API
 * key" that is really an AWS access key id (AKIA…/ASIA…) is never sent as a bearer token: it is
 * only half a credential, so the caller must pass awsCredentials for SigV4.
 */
import { signAwsRequestV4 } from '../aws-sigv4';
import { createEventStreamFramer } from '../framing/event-stream-framer';
import type { ProtocolAdapter, WireEvent } from './adapter';
import { joinUrl } from './join-url';
import { collectText, emptyText, hasText } from './content-parts';
import { classifyInStreamError, countValue, isRecord, nonEmptyString, summarizeErrorText, tryParseJson } from './normalize';
import { addCachedInput } from './cached-input';
import { structuredOutputFields } from './structured-output';
import { conversationFields } from './conversation';
import { serviceTierFields } from '../service-tier';
import { listUnknownUsagePaths, listUsageText } from './usage-places';
import { repeatedKeyPath } from './repeated-keys';
import { withRepeatedKey } from './sse-messages';
import { classifyFinish } from '../finish-reasons';

/** True for an AWS access key id (long-term AKIA…, temporary ASIA…). */
export function looksLikeAccessKeyId(value: string): boolean {
  return /^(AKIA|ASIA)[A-Z0-9]{12,124}$/.test(value);
}

/** Region from a `bedrock-runtime.<region>.amazonaws.com` (or FIPS/VPC-endpoint) host, else null. */
export function regionFromBedrockHost(host: string): string | null {
  const match = /bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com/.exec(host);
  return match ? match[1]! : null;
}

/** contentBlockDelta.delta keys read here or known to carry no generated text. */
const DELTA_KEYS = new Set(['text', 'reasoningContent', 'toolUse', 'citation', 'image', 'toolResult']);

/**
 * Keys each ConverseStream frame is known to carry (Bedrock API reference, ConverseStreamOutput);
 * `p` is the padding Bedrock adds to every frame to hide the lengths of the texts. Text under any
 * other key is recorded as unrecognised (decision 310).
 */
const FRAME_KEYS: Record<string, readonly string[]> = {
  messageStart: ['role', 'p'],
  contentBlockStart: ['start', 'contentBlockIndex', 'p'],
  contentBlockDelta: ['delta', 'contentBlockIndex', 'p'],
  contentBlockStop: ['contentBlockIndex', 'p'],
  messageStop: ['stopReason', 'additionalModelResponseFields', 'p'],
  metadata: ['usage', 'metrics', 'trace', 'performanceConfig', 'serviceTier', 'p'],
};

/** ContentBlockStart members (Bedrock API reference, ConverseStream ContentBlockStart): only `toolUse` opens something we read. */
const START_KEYS = new Set(['toolUse', 'toolResult', 'image']);
/** ToolUseBlockStart keys (Bedrock API reference). */
const TOOL_USE_START_KEYS = new Set(['toolUseId', 'name', 'type']);

/** Decoder state: whether messageStop came, and whether its stopReason already named a failure. */
interface BedrockDecoderState {
  stopped: boolean;
  stopFailed: boolean;
}

/** A count Bedrock states as an integer (TokenUsage): a non-negative integer; a string, negative or fraction is not one. */
function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/**
 * `usage.outputTokens` onto `event`, or, when it is present but not a non-negative integer
 * ("9999", -5, 1.5), the path recorded as unrecognised: an unreadable count is unknown, never a
 * number (decision 061).
 */
function readOutputTokens(usage: Record<string, unknown>, path: string, event: WireEvent): void {
  const value = usage.outputTokens;
  if (value === undefined || value === null) return;
  if (isTokenCount(value)) event.outputTokensReported = value;
  else event.unrecognizedPaths = [...(event.unrecognizedPaths ?? []), path];
}

/** Guardrail actions that mean it stopped or replaced the content (ApplyGuardrail `action`, assessments' policy `action`). */
const GUARDRAIL_STOPPED = /^(guardrail_intervened|intervened|blocked)$/i;

/**
 * A guardrail that intervened, from the metadata frame's `trace.guardrail` (Bedrock API reference,
 * ConverseStreamTrace → GuardrailTraceAssessment: inputAssessment / outputAssessments, each policy
 * finding with an `action` of BLOCKED or NONE, ANONYMIZED for masked PII; `actionReason`): any
 * `action` saying GUARDRAIL_INTERVENED, INTERVENED or BLOCKED means the guardrail replaced the
 * generation with its message, a filter failure like stopReason guardrail_intervened. Detection
 * without action (`detected: true, action: NONE`) and masking (ANONYMIZED) leave the answer whole.
 * Returns the path of the first such action, or undefined.
 */
function guardrailIntervention(value: unknown, path: string, depth = 0): string | undefined {
  if (depth > 12 || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = guardrailIntervention(value[i], `${path}[${i}]`, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'action' && typeof v === 'string' && GUARDRAIL_STOPPED.test(v.trim())) return `${path}.action "${v.trim().slice(0, 40)}"`;
    const found = guardrailIntervention(v, `${path}.${key}`, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Paths of text under keys a frame of `eventType` is not known to carry. */
function unknownFrameTextPaths(eventType: string, payload: Record<string, unknown>): string[] {
  const known = FRAME_KEYS[eventType];
  if (!known) return [];
  return Object.entries(payload)
    .filter(([key, value]) => !known.includes(key) && hasText(value))
    .map(([key]) => `${eventType}.${key}`);
}

function interpretFrame(eventType: string, payload: Record<string, unknown>, state: BedrockDecoderState): WireEvent {
  switch (eventType) {
    case 'contentBlockStart': {
      const start = isRecord(payload.start) ? payload.start : {};
      // Text under a member ContentBlockStart does not have (`start.text`) is not read (decision 061).
      const unknown = Object.entries(start)
        .filter(([key, value]) => !START_KEYS.has(key) && hasText(value))
        .map(([key]) => `contentBlockStart.start.${key}`);
      if (typeof payload.start === 'string' && payload.start !== '') unknown.push('contentBlockStart.start');
      const toolUse = isRecord(start.toolUse) ? start.toolUse : undefined;
      for (const [key, value] of Object.entries(toolUse ?? {}))
        if (!TOOL_USE_START_KEYS.has(key) && hasText(value)) unknown.push(`contentBlockStart.start.toolUse.${key}`);
      const paths = unknown.length > 0 ? { unrecognizedPaths: unknown } : {};
      if (!toolUse) return paths;
      return {
        ...paths,
        toolCalls: [
          {
            key: String(payload.contentBlockIndex),
            id: nonEmptyString(toolUse.toolUseId) ?? null,
            name: nonEmptyString(toolUse.name) ?? null,
            argumentsDelta: '',
          },
        ],
      };
    }
    case 'contentBlockDelta': {
      const delta = isRecord(payload.delta) ? payload.delta : {};
      const event: WireEvent = {};
      const text = emptyText();
      collectText(delta.text, 'answer', 'contentBlockDelta.delta.text', text);
      if (isRecord(delta.reasoningContent)) {
        // reasoningContent: { text } or { reasoningText: { text, signature } }; signature and
        // redactedContent carry no readable text.
        const rc = delta.reasoningContent;
        collectText(rc.text, 'reasoning', 'contentBlockDelta.delta.reasoningContent.text', text);
        if (isRecord(rc.reasoningText)) collectText(rc.reasoningText.text, 'reasoning', 'contentBlockDelta.delta.reasoningContent.reasoningText.text', text);
        // Redacted reasoning: generated (inside usage.outputTokens, which has no reasoning breakdown)
        // but sent encrypted; how many tokens it was is not reported (decision 065).
        if (hasText(rc.redactedContent)) event.reasoningWithheld = true;
        for (const [key, value] of Object.entries(rc)) {
          if (!['text', 'reasoningText', 'signature', 'redactedContent'].includes(key) && hasText(value))
            text.unrecognizedPaths.push(`contentBlockDelta.delta.reasoningContent.${key}`);
        }
      }
      if (text.answer !== '') event.answer = text.answer;
      if (text.reasoning !== '') event.reasoning = text.reasoning;
      const toolInput = isRecord(delta.toolUse) ? nonEmptyString(delta.toolUse.input) : undefined;
      if (toolInput !== undefined) event.toolCalls = [{ key: String(payload.contentBlockIndex), argumentsDelta: toolInput }];
      for (const [key, value] of Object.entries(delta)) {
        if (!DELTA_KEYS.has(key) && hasText(value)) text.unrecognizedPaths.push(`contentBlockDelta.delta.${key}`);
      }
      if (text.unrecognizedPaths.length > 0) event.unrecognizedPaths = text.unrecognizedPaths;
      return event;
    }
    case 'messageStop': {
      state.stopped = true;
      const stop = nonEmptyString(payload.stopReason);
      const event: WireEvent = stop === undefined ? { complete: true } : { complete: true, finishReason: stop };
      state.stopFailed = classifyFinish('bedrock-converse-stream', stop).verdict === 'failed';
      // The model's own stop reason, relayed in additionalModelResponseFields (Anthropic's
      // `stop_reason`, others' `stopReason`; `stop_sequence: null` beside it is metadata): one
      // naming a filter or failure fails the probe even beside a clean stopReason.
      if (!state.stopFailed && isRecord(payload.additionalModelResponseFields)) {
        const fields = payload.additionalModelResponseFields;
        for (const key of ['stop_reason', 'stopReason']) {
          const word = nonEmptyString(fields[key]);
          const verdict = classifyFinish('bedrock-converse-stream', word);
          if (verdict.verdict === 'failed') {
            event.error = { kind: verdict.errorKind, message: verdict.message.replace(/^finish /, `messageStop.additionalModelResponseFields.${key} `) };
            break;
          }
        }
      }
      return event;
    }
    case 'metadata': {
      const event: WireEvent = {};
      const usage = isRecord(payload.usage) ? payload.usage : {};
      readOutputTokens(usage, 'metadata.usage.outputTokens', event);
      const usageText = listUsageText(usage, 'metadata.usage', (k) => k === 'outputTokens');
      if (usageText.length > 0) event.unrecognizedPaths = [...(event.unrecognizedPaths ?? []), ...usageText];
      addCachedInput('bedrock-converse-stream', usage, event);
      // A guardrail that intervened is a filter's verdict, whatever stopReason said (unless it said so).
      const trace = isRecord(payload.trace) ? payload.trace : {};
      const intervention = state.stopFailed ? undefined : guardrailIntervention(trace.guardrail, 'metadata.trace.guardrail');
      if (intervention !== undefined) event.error = { kind: 'stream_error', message: `${intervention}: the provider's content filter ended the generation` };
      const metrics = isRecord(payload.metrics) ? payload.metrics : {};
      const latency = countValue(metrics.latencyMs);
      if (latency !== undefined) event.providerMetrics = { latencyMs: latency };
      // Usage follows messageStop; once it has arrived there is nothing left to wait for.
      if (state.stopped) event.terminal = true;
      return event;
    }
    case 'messageStart':
    case 'contentBlockStop':
      return {};
    default:
      // An event type this adapter does not know: recorded when it carries text.
      return hasText(payload) ? { unrecognizedPaths: [`event:${eventType}`] } : {};
  }
}

/** Text bodies (not event-stream frames) are kept up to this many bytes. */
const MAX_TEXT_BODY = 64 * 1024;

/**
 * A body that is not event-stream frames: a whole Converse response (`output.message`, one
 * buffered event), a JSON error (`message`, `__type`), an HTML page, or anything else (an error).
 */
function interpretTextBody(text: string): WireEvent {
  const parsed = tryParseJson(text.trim());
  if (isRecord(parsed) && isRecord(parsed.output) && isRecord(parsed.output.message)) {
    const content = Array.isArray(parsed.output.message.content) ? parsed.output.message.content : [];
    const collected = emptyText();
    const event: WireEvent = { complete: true, terminal: true };
    content.forEach((block, i) => {
      if (!isRecord(block)) return;
      collectText(block.text, 'answer', `output.message.content[${i}].text`, collected);
      if (isRecord(block.reasoningContent) && isRecord(block.reasoningContent.reasoningText)) {
        collectText(block.reasoningContent.reasoningText.text, 'reasoning', `output.message.content[${i}].reasoningContent.reasoningText.text`, collected);
      }
      if (isRecord(block.reasoningContent) && hasText(block.reasoningContent.redactedContent)) event.reasoningWithheld = true;
      if (isRecord(block.toolUse)) {
        (event.toolCalls ??= []).push({
          key: String(i),
          id: nonEmptyString(block.toolUse.toolUseId) ?? null,
          name: nonEmptyString(block.toolUse.name) ?? null,
          argumentsDelta: JSON.stringify(block.toolUse.input ?? {}),
        });
      }
    });
    if (collected.answer !== '') event.answer = collected.answer;
    if (collected.reasoning !== '') event.reasoning = collected.reasoning;
    const stop = nonEmptyString(parsed.stopReason);
    if (stop !== undefined) event.finishReason = stop;
    const usage = isRecord(parsed.usage) ? parsed.usage : {};
    readOutputTokens(usage, 'usage.outputTokens', event);
    addCachedInput('bedrock-converse-stream', usage, event);
    return event;
  }
  const summary = summarizeErrorText(text);
  const type = isRecord(parsed) ? String(parsed.__type ?? parsed.type ?? '') : '';
  return { error: classifyInStreamError(`${type} ${summary}`, `not an event stream: ${type ? `${type} ` : ''}${summary}`.slice(0, 300)) };
}

/** Adapter for Amazon Bedrock ConverseStream. */
export const bedrockConverseStreamAdapter: ProtocolAdapter = {
  protocol: 'bedrock-converse-stream',
  cumulativeText: true,
  buildRequest(input) {
    const url = joinUrl(input.url, `model/${encodeURIComponent(input.model)}/converse-stream`);
    const tier = input.serviceTier ? serviceTierFields('bedrock-converse-stream', input.serviceTier) : null;
    const body = JSON.stringify({
      messages: [{ role: 'user', content: [{ text: input.prompt }] }],
      ...(input.conversation ? conversationFields('bedrock-converse-stream', input.conversation) : {}),
      inferenceConfig: { maxTokens: input.maxOutputTokens },
      ...tier?.body,
      ...(input.output ? structuredOutputFields('bedrock-converse-stream', input.output) : {}),
    });
    let headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/vnd.amazon.eventstream',
      ...tier?.headers,
    };
    // An AWS access key id (AKIA…/ASIA…) is half of a SigV4 credential, never a bearer token;
    // Bedrock API keys (bearer) look different.
    const bearer = input.apiKey && !looksLikeAccessKeyId(input.apiKey) ? input.apiKey : null;
    if (bearer) {
      headers.authorization = `Bearer ${bearer}`;
    } else if (input.awsCredentials) {
      const creds = input.awsCredentials;
      const region = creds.region ?? regionFromBedrockHost(new URL(url).host) ?? 'us-east-1';
      headers = signAwsRequestV4({
        method: 'POST',
        url,
        headers,
        body,
        accessKeyId: creds.accessKeyId,
        secretAccessKey: creds.secretAccessKey,
        sessionToken: creds.sessionToken ?? null,
        region,
        service: 'bedrock',
        date: input.now ?? new Date(),
      });
      // fetch sets Host itself from the URL; sending it explicitly is refused by undici.
      delete headers.host;
    }
    return { url, init: { method: 'POST', headers, body } };
  },
  createDecoder(sink) {
    const state: BedrockDecoderState = { stopped: false, stopFailed: false };
    const decoder = new TextDecoder('utf-8');
    const framer = createEventStreamFramer({
      onMessage(message, atMs) {
        const header = (name: string) => {
          const h = message.headers[name];
          return h && h.type === 'string' ? h.value : '';
        };
        const messageType = header(':message-type');
        const text = decoder.decode(message.body);
        if (messageType === 'exception' || messageType === 'error') {
          const type = header(':exception-type') || header(':error-code') || 'exception';
          const parsed = tryParseJson(text);
          const detail = isRecord(parsed) && typeof parsed.message === 'string' ? parsed.message : header(':error-message') || text;
          return sink({ error: classifyInStreamError(`${type} ${detail}`, `${type}: ${detail}`.slice(0, 300)) }, atMs);
        }
        const payload = tryParseJson(text);
        if (!isRecord(payload)) {
          return sink({ error: { kind: 'stream_error', message: `unparsable frame payload: ${text.slice(0, 120)}` } }, atMs);
        }
        const eventType = header(':event-type');
        const event = withRepeatedKey(interpretFrame(eventType, payload, state), repeatedKeyPath(text));
        // Usage anywhere but the metadata frame's `usage` is recorded (decision 191).
        const unknownUsage = listUnknownUsagePaths(payload, (p) => eventType === 'metadata' && p === 'usage').map((p) => `${eventType}.${p}`);
        const unknown = [...unknownUsage, ...unknownFrameTextPaths(eventType, payload)];
        if (unknown.length > 0) event.unrecognizedPaths = [...(event.unrecognizedPaths ?? []), ...unknown];
        sink(event, atMs);
      },
      onError(message, atMs) {
        sink({ error: { kind: 'stream_error', message } }, atMs);
      },
    });
    // Every event-stream frame starts with its total length (< 16 MiB), so its first byte is 0.
    // A body starting otherwise is text: a JSON error or a whole non-streamed response from a
    // proxy or mock, or an HTML page. It is read to its end and interpreted once.
    let mode: 'unknown' | 'frames' | 'text' = 'unknown';
    const textParts: Uint8Array[] = [];
    let textLength = 0;
    let lastMs = 0;
    return {
      push(bytes, atMs) {
        if (bytes.length === 0) return;
        if (mode === 'unknown') mode = bytes[0] === 0 ? 'frames' : 'text';
        if (mode === 'frames') return framer.push(bytes, atMs);
        lastMs = atMs;
        if (textLength < MAX_TEXT_BODY) {
          textParts.push(bytes.subarray(0, MAX_TEXT_BODY - textLength));
          textLength += Math.min(bytes.length, MAX_TEXT_BODY - textLength);
        }
      },
      end(atMs) {
        if (mode !== 'text') return framer.end(atMs);
        const body = new TextDecoder().decode(Buffer.concat(textParts));
        sink(withRepeatedKey(interpretTextBody(body), tryParseJson(body.trim()) === undefined ? null : repeatedKeyPath(body.trim())), lastMs);
      },
    };
  },
};
