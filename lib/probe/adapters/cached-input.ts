/**
 * Prompt-cache counts in a usage report, per protocol (issue 25): how many input tokens the
 * provider served from its prompt cache (a cache read), where the protocol says, how many it
 * wrote to the cache, and how many input (prompt) tokens the request had in all, so the cached
 * share of the prompt is known (decision 290). Evidence of warm against cold (lib/probe/workloads
 * `cache-*`, `agent-turn-*`).
 *
 * Places (each protocol's own documentation):
 * - OpenAI Chat Completions, vLLM, SGLang, OpenRouter, DeepSeek: `usage.prompt_tokens_details.cached_tokens`
 *   (https://platform.openai.com/docs/guides/prompt-caching); DeepSeek's `prompt_cache_hit_tokens`
 *   (https://api-docs.deepseek.com/guides/kv_cache) when the first is absent.
 * - OpenAI Responses: `usage.input_tokens_details.cached_tokens`.
 * - Anthropic Messages: `usage.cache_read_input_tokens` (read) and `usage.cache_creation_input_tokens`
 *   (written), in message_start and again in message_delta (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching).
 * - Gemini: `usageMetadata.cachedContentTokenCount` (https://ai.google.dev/api/generate-content#UsageMetadata).
 * - Bedrock ConverseStream: `usage.cacheReadInputTokens` / `usage.cacheWriteInputTokens`
 *   (https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html).
 *
 * The prompt's input tokens (decision 290), each protocol's own count:
 * - OpenAI Chat (and compatible servers): `usage.prompt_tokens`, which includes the cached tokens
 *   (https://platform.openai.com/docs/api-reference/chat/object#usage); `usage.input_tokens` when a
 *   server names it the Responses way.
 * - OpenAI Responses: `usage.input_tokens` (includes `input_tokens_details.cached_tokens`).
 * - Anthropic Messages: `input_tokens` counts only the tokens after the last cache breakpoint; the
 *   prompt is `input_tokens + cache_read_input_tokens + cache_creation_input_tokens`
 *   (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching#tracking-cache-performance).
 *   A cache field the report omits adds nothing (the report then says nothing was read or written).
 * - Gemini: `usageMetadata.promptTokenCount` (includes `cachedContentTokenCount`).
 * - Bedrock: `inputTokens + cacheReadInputTokens + cacheWriteInputTokens` (the cache counts are not
 *   part of `inputTokens`, as with Anthropic).
 * A report without the protocol's input count gives none (never 0 by guess).
 * Pure.
 */
import type { Protocol } from '../types';
import type { WireEvent } from './adapter';
import { countValue, isRecord } from './normalize';

/** Cache counts of one usage report, tokens; a field is absent when the report does not carry it. */
export interface CachedInputCounts {
  /** input tokens served from the provider's prompt cache */
  cachedInputTokens?: number;
  /** input tokens written to the cache by this request (Anthropic, Bedrock only) */
  cacheWriteInputTokens?: number;
  /** input (prompt) tokens of the request in all, cached ones included (decision 290) */
  inputTokensReported?: number;
}

/** `base` plus the cache parts that are counts (an absent part adds nothing); undefined without `base`. */
function promptSum(base: unknown, ...parts: unknown[]): unknown {
  const b = countValue(base);
  if (b === undefined) return undefined;
  return parts.reduce<number>((sum, p) => sum + (countValue(p) ?? 0), b);
}

/** The cache counts of `usage` (the protocol's usage object: `usage`, `usageMetadata`). */
export function readCachedInput(protocol: Protocol, usage: Record<string, unknown>): CachedInputCounts {
  const out: CachedInputCounts = {};
  const set = (read: unknown, write: unknown, input: unknown) => {
    const r = countValue(read);
    const w = countValue(write);
    const i = countValue(input);
    if (r !== undefined) out.cachedInputTokens = r;
    if (w !== undefined) out.cacheWriteInputTokens = w;
    if (i !== undefined) out.inputTokensReported = i;
  };
  switch (protocol) {
    case 'openai-chat': {
      const details = isRecord(usage.prompt_tokens_details)
        ? usage.prompt_tokens_details
        : isRecord(usage.input_tokens_details)
          ? usage.input_tokens_details
          : {};
      set(details.cached_tokens ?? usage.prompt_cache_hit_tokens, undefined, usage.prompt_tokens ?? usage.input_tokens);
      break;
    }
    case 'openai-responses':
      set(isRecord(usage.input_tokens_details) ? usage.input_tokens_details.cached_tokens : undefined, undefined, usage.input_tokens);
      break;
    case 'anthropic-messages':
      set(
        usage.cache_read_input_tokens,
        usage.cache_creation_input_tokens,
        promptSum(usage.input_tokens, usage.cache_read_input_tokens, usage.cache_creation_input_tokens),
      );
      break;
    case 'gemini-stream':
      set(usage.cachedContentTokenCount, undefined, usage.promptTokenCount);
      break;
    case 'bedrock-converse-stream':
      set(usage.cacheReadInputTokens, usage.cacheWriteInputTokens, promptSum(usage.inputTokens, usage.cacheReadInputTokens, usage.cacheWriteInputTokens));
      break;
  }
  return out;
}

/** Copies the cache and input counts of `usage` onto `event` (the accumulator keeps the last value given). */
export function addCachedInput(protocol: Protocol, usage: Record<string, unknown>, event: WireEvent): void {
  const counts = readCachedInput(protocol, usage);
  if (counts.cachedInputTokens !== undefined) event.cachedInputTokens = counts.cachedInputTokens;
  if (counts.cacheWriteInputTokens !== undefined) event.cacheWriteInputTokens = counts.cacheWriteInputTokens;
  if (counts.inputTokensReported !== undefined) event.inputTokensReported = counts.inputTokensReported;
}
