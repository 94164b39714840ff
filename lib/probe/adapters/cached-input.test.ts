/**
 * Prompt-cache counts per protocol (issue 25): each protocol's documented usage field becomes the
 * measurement's cachedInputTokens (and cacheWriteInputTokens where the protocol reports writes),
 * and its prompt size inputTokensReported (decision 290: Anthropic and Bedrock as the sum of the
 * input count and both cache counts), read from a real stream body through the real decoder; the
 * usage fields stay known (rankable). Absent counts are null, never 0.
 */
import { describe, expect, it } from 'vitest';
import { readCachedInput } from './cached-input';
import { bedrockFrame } from '../test-support/case-wire';
import { parseWholeBody, sseBody, typedEvent } from '../test-support/parse-whole-body';

describe('cached input tokens per protocol', () => {
  it('openai-chat: usage.prompt_tokens_details.cached_tokens', async () => {
    const r = await parseWholeBody(
      'openai-chat',
      sseBody([
        [null, { choices: [{ index: 0, delta: { content: 'Hello there' }, finish_reason: null }] }],
        [null, { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }],
        [null, { choices: [], usage: { prompt_tokens: 2048, completion_tokens: 2, total_tokens: 2050, prompt_tokens_details: { cached_tokens: 1920 } } }],
      ]) + 'data: [DONE]\n\n',
    );
    expect(r.flags.unrecognizedShape).toBe(false);
    expect(r.cachedInputTokens).toBe(1920);
    expect(r.cacheWriteInputTokens).toBeNull();
    expect(r.inputTokensReported).toBe(2048);
  });

  it('openai-chat without a cache field: null, not 0', async () => {
    const r = await parseWholeBody(
      'openai-chat',
      sseBody([
        [
          null,
          { choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: 'stop' }], usage: { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 } },
        ],
      ]) + 'data: [DONE]\n\n',
    );
    expect(r.cachedInputTokens).toBeNull();
    expect(r.inputTokensReported).toBe(9);
  });

  it('openai-chat without usage at all: input and cached both null', async () => {
    const r = await parseWholeBody(
      'openai-chat',
      sseBody([[null, { choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: 'stop' }] }]]) + 'data: [DONE]\n\n',
    );
    expect(r.outcome).toBe('success');
    expect(r.inputTokensReported).toBeNull();
    expect(r.cachedInputTokens).toBeNull();
  });

  it('openai-responses: usage.input_tokens_details.cached_tokens', async () => {
    const r = await parseWholeBody(
      'openai-responses',
      sseBody([
        typedEvent('response.created', { sequence_number: 0, response: { id: 'r1', status: 'in_progress', output: [] } }),
        typedEvent('response.output_text.delta', { sequence_number: 1, item_id: 'm', output_index: 0, content_index: 0, delta: 'Hello there' }),
        typedEvent('response.completed', {
          sequence_number: 2,
          response: {
            id: 'r1',
            status: 'completed',
            output: [],
            usage: { input_tokens: 2048, input_tokens_details: { cached_tokens: 1024 }, output_tokens: 2, total_tokens: 2050 },
          },
        }),
      ]),
    );
    expect(r.outcome).toBe('success');
    expect(r.cachedInputTokens).toBe(1024);
    expect(r.inputTokensReported).toBe(2048);
  });

  it('anthropic-messages: cache_read_input_tokens and cache_creation_input_tokens', async () => {
    const r = await parseWholeBody(
      'anthropic-messages',
      sseBody([
        typedEvent('message_start', {
          message: {
            id: 'm',
            type: 'message',
            role: 'assistant',
            content: [],
            usage: { input_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 2036, output_tokens: 1 },
          },
        }),
        typedEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        typedEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hello there' } }),
        typedEvent('content_block_stop', { index: 0 }),
        typedEvent('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }),
        typedEvent('message_stop'),
      ]),
    );
    expect(r.flags.unrecognizedShape).toBe(false);
    expect(r.cachedInputTokens).toBe(2036);
    expect(r.cacheWriteInputTokens).toBe(0);
    // input_tokens counts only what follows the last cache breakpoint: the prompt is 12 + 2036 + 0
    expect(r.inputTokensReported).toBe(2048);
  });

  it('anthropic-messages: a cold request writes the cache', async () => {
    const r = await parseWholeBody(
      'anthropic-messages',
      sseBody([
        typedEvent('message_start', {
          message: { id: 'm', content: [], usage: { input_tokens: 12, cache_creation_input_tokens: 2036, cache_read_input_tokens: 0, output_tokens: 1 } },
        }),
        typedEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
        typedEvent('message_delta', {
          delta: { stop_reason: 'end_turn' },
          usage: { output_tokens: 1, cache_creation_input_tokens: 2036, cache_read_input_tokens: 0 },
        }),
        typedEvent('message_stop'),
      ]),
    );
    expect(r.cachedInputTokens).toBe(0);
    expect(r.cacheWriteInputTokens).toBe(2036);
    // message_delta repeats the cache counts without input_tokens: message_start's prompt stays
    expect(r.inputTokensReported).toBe(2048);
  });

  it('anthropic-messages without cache fields: the prompt is input_tokens, the cached count unknown', async () => {
    const r = await parseWholeBody(
      'anthropic-messages',
      sseBody([
        typedEvent('message_start', { message: { id: 'm', content: [], usage: { input_tokens: 31, output_tokens: 1 } } }),
        typedEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
        typedEvent('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } }),
        typedEvent('message_stop'),
      ]),
    );
    expect(r.outcome).toBe('success');
    expect(r.inputTokensReported).toBe(31);
    expect(r.cachedInputTokens).toBeNull();
  });

  it('gemini-stream: usageMetadata.cachedContentTokenCount', async () => {
    const r = await parseWholeBody(
      'gemini-stream',
      sseBody([
        [null, { candidates: [{ content: { role: 'model', parts: [{ text: 'Hello there' }] }, index: 0 }] }],
        [
          null,
          {
            candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
            usageMetadata: { promptTokenCount: 2048, cachedContentTokenCount: 1536, candidatesTokenCount: 2, totalTokenCount: 2050 },
          },
        ],
      ]),
    );
    expect(r.outcome).toBe('success');
    expect(r.flags.unrecognizedShape).toBe(false);
    expect(r.cachedInputTokens).toBe(1536);
    expect(r.inputTokensReported).toBe(2048);
  });

  it('bedrock-converse-stream: the metadata frame, the prompt as inputTokens + both cache counts', async () => {
    const frame = bedrockFrame;
    const frames = [
      frame('messageStart', { role: 'assistant' }),
      frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hello there' } }),
      frame('contentBlockStop', { contentBlockIndex: 0 }),
      frame('messageStop', { stopReason: 'end_turn' }),
      frame('metadata', {
        usage: { inputTokens: 48, outputTokens: 2, totalTokens: 50, cacheReadInputTokens: 1800, cacheWriteInputTokens: 200 },
        metrics: { latencyMs: 90 },
      }),
    ];
    const r = await parseWholeBody('bedrock-converse-stream', Buffer.concat(frames));
    expect(r.outcome).toBe('success');
    expect(r.flags.unrecognizedShape).toBe(false);
    expect(r.cachedInputTokens).toBe(1800);
    expect(r.cacheWriteInputTokens).toBe(200);
    expect(r.inputTokensReported).toBe(2048);
  });

  it('bedrock-converse-stream: usage.cacheReadInputTokens / cacheWriteInputTokens', () => {
    expect(readCachedInput('bedrock-converse-stream', { inputTokens: 10, outputTokens: 2, cacheReadInputTokens: 2000, cacheWriteInputTokens: 0 })).toEqual({
      cachedInputTokens: 2000,
      cacheWriteInputTokens: 0,
      inputTokensReported: 2010,
    });
    expect(readCachedInput('openai-chat', { prompt_tokens: 10, prompt_cache_hit_tokens: 640 })).toEqual({ cachedInputTokens: 640, inputTokensReported: 10 });
  });

  it('a count that is not a count is unknown, not 0', () => {
    expect(readCachedInput('openai-chat', { prompt_tokens: -3, prompt_tokens_details: { cached_tokens: '5' } })).toEqual({});
    expect(readCachedInput('openai-responses', { input_tokens: null, input_tokens_details: { cached_tokens: 7 } })).toEqual({ cachedInputTokens: 7 });
    // Anthropic without its input_tokens: the cache counts alone do not make a prompt size
    expect(readCachedInput('anthropic-messages', { cache_read_input_tokens: 900, output_tokens: 3 })).toEqual({ cachedInputTokens: 900 });
    expect(readCachedInput('gemini-stream', { candidatesTokenCount: 4 })).toEqual({});
  });
});
