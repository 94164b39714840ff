/**
 * Anthropic Messages streaming (SSE with `event:` lines).
 *
 * URL decision: the endpoint's base URL is the API root as providers document it. Anthropic
 * documents `https://api.anthropic.com` (no version) while gateways and compatible servers
 * usually document `.../v1`. So: a base whose path ends in `/v1` gets `/messages`; a base already
 * ending in `/messages` is used as is; any other base gets `/v1/messages`.
 *
 * Wire facts handled (case C13 and variants): `message_start` carries a PROVISIONAL usage,
 * `message_delta` the cumulative one (last value wins, never a sum); `ping`,
 * `content_block_start/stop` carry no tokens; `text_delta`, `thinking_delta` and
 * `input_json_delta` do; `error` events can follow HTTP 200 (overloaded_error → stream_error,
 * rate_limit_error → rate_limited); `message_stop` is the terminal marker.
 */
import { createSseFramer } from '../framing/sse-framer';
import type { ProtocolAdapter, WireEvent } from './adapter';
import { joinUrl, pathEndsWith } from './join-url';
import { classifyInStreamError, countValue, isRecord, nonEmptyString, tryParseJson } from './normalize';

/** Anthropic API version header value the probe speaks. */
export const ANTHROPIC_VERSION = '2023-06-01';

function interpretEvent(type: string, data: Record<string, unknown>): WireEvent {
  switch (type) {
    case 'message_start': {
      const message = isRecord(data.message) ? data.message : {};
      const usage = isRecord(message.usage) ? message.usage : {};
      const count = countValue(usage.output_tokens);
      return count === undefined ? {} : { outputTokensReported: count };
    }
    case 'content_block_start': {
      const block = isRecord(data.content_block) ? data.content_block : {};
      if (block.type === 'tool_use' || block.type === 'server_tool_use') {
        // Opens the call (fixes its order, id and name); its arguments come in input_json_delta.
        return {
          toolCalls: [
            { key: String(data.index), id: nonEmptyString(block.id) ?? null, name: nonEmptyString(block.name) ?? null, argumentsDelta: '' },
          ],
        };
      }
      // A text block may in principle start with text; it counts like a delta.
      const text = block.type === 'text' ? nonEmptyString(block.text) : undefined;
      return text === undefined ? {} : { answer: text };
    }
    case 'content_block_delta': {
      const delta = isRecord(data.delta) ? data.delta : {};
      if (delta.type === 'text_delta') {
        const text = nonEmptyString(delta.text);
        return text === undefined ? {} : { answer: text };
      }
      if (delta.type === 'thinking_delta') {
        const text = nonEmptyString(delta.thinking);
        return text === undefined ? {} : { reasoning: text };
      }
      if (delta.type === 'input_json_delta') {
        const json = typeof delta.partial_json === 'string' ? delta.partial_json : '';
        return json === '' ? {} : { toolCalls: [{ key: String(data.index), argumentsDelta: json }] };
      }
      return {}; // signature_delta, citations_delta: no generated tokens
    }
    case 'message_delta': {
      const event: WireEvent = {};
      const delta = isRecord(data.delta) ? data.delta : {};
      const stop = nonEmptyString(delta.stop_reason);
      if (stop !== undefined) event.finishReason = stop;
      const usage = isRecord(data.usage) ? data.usage : {};
      const count = countValue(usage.output_tokens);
      if (count !== undefined) event.outputTokensReported = count;
      return event;
    }
    case 'message_stop':
      return { complete: true, terminal: true };
    case 'error': {
      const error = isRecord(data.error) ? data.error : data;
      const description = `${String(error.type ?? '')} ${String(error.message ?? '')}`.trim();
      return { error: classifyInStreamError(description, `in-stream error: ${description}`) };
    }
    default:
      return {}; // ping and unknown future events
  }
}

/** Adapter for the Anthropic Messages API (and compatible gateways). */
export const anthropicMessagesAdapter: ProtocolAdapter = {
  protocol: 'anthropic-messages',
  cumulativeText: false,
  buildRequest(input) {
    let url: string;
    if (pathEndsWith(input.url, '/messages')) url = input.url;
    else if (pathEndsWith(input.url, '/v1')) url = joinUrl(input.url, 'messages');
    else url = joinUrl(input.url, 'v1/messages');
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'anthropic-version': ANTHROPIC_VERSION,
    };
    if (input.apiKey) headers['x-api-key'] = input.apiKey;
    const body = {
      model: input.model,
      max_tokens: input.maxOutputTokens,
      stream: true,
      messages: [{ role: 'user', content: input.prompt }],
    };
    return { url, init: { method: 'POST', headers, body: JSON.stringify(body) } };
  },
  createDecoder(sink) {
    return createSseFramer((message, atMs) => {
      const data = message.data.trim();
      if (data === '') return sink({}, atMs);
      const parsed = tryParseJson(data);
      if (!isRecord(parsed)) {
        return sink({ error: { kind: 'stream_error', message: `unparsable event data: ${data.slice(0, 120)}` } }, atMs);
      }
      const type = typeof parsed.type === 'string' ? parsed.type : (message.event ?? '');
      sink(interpretEvent(type, parsed), atMs);
    });
  },
};
