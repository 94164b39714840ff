/**
 * OpenAI Chat Completions streaming (`POST {base}/chat/completions`, SSE), spoken by OpenAI,
 * Azure OpenAI, Groq, SambaNova, OpenRouter, Together, Fireworks and by the open serving engines
 * (vLLM, SGLang, TensorRT-LLM `trtllm-serve`, NVIDIA NIM).
 *
 * Quirks handled here (case ids refer to lib/probe/test-support/cases):
 * - comments, `data:` without space, CRLF, multi-line data (C01-C05B): the SSE framer;
 * - role-only chunks, `content: ""`/null, empty `choices` (Azure prompt filter), choices without
 *   `delta` (Azure async filter annotations) carry no tokens (C06, C07, C08);
 * - `reasoning_content` (DeepSeek, vLLM, SGLang) and `reasoning` (OpenRouter, newer vLLM) are the
 *   reasoning channel (C08);
 * - cumulative servers that repeat all text so far in each chunk (C10): flagged via
 *   `cumulativeText`, resolved by the accumulator after the stream;
 * - usage from exactly one source: top-level `usage` (running usage in every chunk → last value;
 *   empty-`choices` usage chunk of OpenAI/Azure/SambaNova/vLLM), `x_groq.usage` only as fallback (C11, C12, C14);
 * - OpenRouter in-band `error` objects after HTTP 200 (C15), `event: error` events;
 * - success by `[DONE]`, or by a non-null finish_reason followed by a clean close (C17).
 */
import { createSseFramer } from '../framing/sse-framer';
import type { ProtocolAdapter, ToolCallDelta, WireEvent } from './adapter';
import { joinUrl, pathEndsWith } from './join-url';
import { classifyInStreamError, countValue, isRecord, nonEmptyString, tryParseJson } from './normalize';

/** Interprets one OpenAI chunk object; `state` keeps the usage-source choice across chunks. */
function interpretChunk(chunk: Record<string, unknown>, state: { topLevelUsageSeen: boolean }): WireEvent {
  const event: WireEvent = {};
  if (chunk.error != null) {
    const description = typeof chunk.error === 'string' ? chunk.error : JSON.stringify(chunk.error);
    const message = isRecord(chunk.error) && typeof chunk.error.message === 'string' ? chunk.error.message : description;
    event.error = classifyInStreamError(description, `in-stream error: ${message}`);
  }
  const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
  // n = 1 is what the probe asks for; take choice index 0 wherever it sits.
  const choice = choices.find((c) => isRecord(c) && (c.index === 0 || c.index === undefined)) ?? choices[0];
  if (isRecord(choice)) {
    const delta = choice.delta;
    if (isRecord(delta)) {
      const answer = nonEmptyString(delta.content);
      if (answer !== undefined) event.answer = answer;
      const reasoning = nonEmptyString(delta.reasoning_content) ?? nonEmptyString(delta.reasoning);
      if (reasoning !== undefined) event.reasoning = reasoning;
      if (Array.isArray(delta.tool_calls)) {
        const calls: ToolCallDelta[] = [];
        delta.tool_calls.forEach((call, position) => {
          if (!isRecord(call)) return;
          const fn = isRecord(call.function) ? call.function : {};
          calls.push({
            key: String(typeof call.index === 'number' ? call.index : position),
            id: nonEmptyString(call.id) ?? null,
            name: nonEmptyString(fn.name) ?? null,
            argumentsDelta: typeof fn.arguments === 'string' ? fn.arguments : '',
          });
        });
        if (calls.length > 0) event.toolCalls = calls;
      }
    }
    const finish = nonEmptyString(choice.finish_reason);
    if (finish !== undefined) {
      event.finishReason = finish;
      event.complete = true;
    }
  }
  const usage = isRecord(chunk.usage) ? chunk.usage : undefined;
  const usageCount = usage ? countValue(usage.completion_tokens) : undefined;
  if (usage && usageCount !== undefined) {
    state.topLevelUsageSeen = true;
    event.outputTokensReported = usageCount;
    const metrics = numericFields(usage, ['completion_tokens', 'prompt_tokens', 'total_tokens']);
    if (metrics) event.providerMetrics = metrics;
  } else if (!state.topLevelUsageSeen && isRecord(chunk.x_groq) && isRecord(chunk.x_groq.usage)) {
    const groqCount = countValue(chunk.x_groq.usage.completion_tokens);
    if (groqCount !== undefined) event.outputTokensReported = groqCount;
    const metrics = numericFields(chunk.x_groq.usage, ['completion_tokens', 'prompt_tokens', 'total_tokens']);
    if (metrics) event.providerMetrics = metrics;
  }
  return event;
}

/** Provider timing figures next to usage counts (SambaNova time_to_first_token, Groq queue_time...). */
function numericFields(source: Record<string, unknown>, skip: string[]): Record<string, number> | undefined {
  let out: Record<string, number> | undefined;
  for (const [key, value] of Object.entries(source)) {
    if (skip.includes(key) || typeof value !== 'number' || !Number.isFinite(value)) continue;
    (out ??= {})[key] = value;
  }
  return out;
}

function isAzureHost(url: string): boolean {
  return new URL(url).hostname.endsWith('.azure.com');
}

/**
 * Azure endpoints refuse requests without `api-version`. When the catalog URL has none we add
 * the GA version of the API the host serves: Azure AI model inference (`.../models`) or Azure
 * OpenAI (`*.openai.azure.com`). A version already in the URL is kept.
 */
function azureApiVersion(url: string): string {
  const u = new URL(url);
  if (!u.hostname.endsWith('.azure.com') || u.searchParams.has('api-version')) return url;
  u.searchParams.set('api-version', u.pathname.startsWith('/models/') ? '2024-05-01-preview' : '2024-10-21');
  return u.toString();
}

/** Adapter for OpenAI-compatible Chat Completions streams. */
export const openAiChatAdapter: ProtocolAdapter = {
  protocol: 'openai-chat',
  cumulativeText: true,
  buildRequest(input) {
    // The base names the API root (".../v1"); a full ".../chat/completions" URL is accepted as is.
    const url = azureApiVersion(pathEndsWith(input.url, '/chat/completions') ? input.url : joinUrl(input.url, 'chat/completions'));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream',
    };
    if (input.apiKey) {
      headers.authorization = `Bearer ${input.apiKey}`;
      // Azure key auth reads `api-key`; Azure also accepts the bearer form for Entra tokens.
      if (isAzureHost(url)) headers['api-key'] = input.apiKey;
    }
    const body = {
      model: input.model,
      messages: [{ role: 'user', content: input.prompt }],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: input.maxOutputTokens,
    };
    return { url, init: { method: 'POST', headers, body: JSON.stringify(body) } };
  },
  createDecoder(sink) {
    const state = { topLevelUsageSeen: false };
    return createSseFramer((message, atMs) => {
      const data = message.data.trim();
      if (data === '') return sink({}, atMs);
      if (data === '[DONE]') return sink({ terminal: true }, atMs);
      const parsed = tryParseJson(data);
      if (message.event === 'error') {
        const description = isRecord(parsed) ? JSON.stringify(parsed.error ?? parsed) : data;
        return sink({ error: classifyInStreamError(description, `in-stream error event: ${description}`) }, atMs);
      }
      if (!isRecord(parsed)) {
        return sink({ error: { kind: 'stream_error', message: `unparsable event data: ${data.slice(0, 120)}` } }, atMs);
      }
      sink(interpretChunk(parsed, state), atMs);
    });
  },
};
