/**
 * The tier a response says served it (decision 293), read through each protocol's real decoder
 * from recorded bodies: OpenAI Chat's top-level `service_tier` of every chunk, Responses'
 * `response.service_tier`, Anthropic's `usage.service_tier`; kept as evidence.servedServiceTier
 * (a known field: no unrecognized shape), absent when the response names none. Then the
 * comparison with the declared tier and its effect on the objective's verdict, at the edges.
 */
import { describe, expect, it } from 'vitest';
import { findServiceTierMismatch, judgeTierObjective, type TierObjective } from '../service-tier';
import { parseWholeBody, sseBody, typedEvent } from '../test-support/parse-whole-body';

describe('served service tier per protocol', () => {
  it('openai-chat: service_tier of the chunks (as OpenAI sends it on every chunk)', async () => {
    const base = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-5.4', service_tier: 'default', system_fingerprint: 'fp' };
    const r = await parseWholeBody(
      'openai-chat',
      sseBody([
        [null, { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: 'Hello' }, finish_reason: null }] }],
        [null, { ...base, choices: [{ index: 0, delta: { content: ' there' }, finish_reason: 'stop' }] }],
        [null, { ...base, choices: [], usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } }],
      ]) + 'data: [DONE]\n\n',
    );
    expect(r.outcome).toBe('success');
    // a known field: no unrecognized-shape reason (the one-read body is only `buffered_stream`)
    expect(r.flags.unrecognizedShape).toBe(false);
    expect(r.notRankableReasons).toEqual(['buffered_stream']);
    expect(r.evidence.servedServiceTier).toBe('default');
  });

  it('openai-chat without service_tier: no evidence', async () => {
    const r = await parseWholeBody(
      'openai-chat',
      sseBody([[null, { choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: 'stop' }] }]]) + 'data: [DONE]\n\n',
    );
    expect(r.outcome).toBe('success');
    expect(r.evidence.servedServiceTier).toBeUndefined();
  });

  it('openai-responses: response.service_tier of the terminal response', async () => {
    const r = await parseWholeBody(
      'openai-responses',
      sseBody([
        typedEvent('response.created', { sequence_number: 0, response: { id: 'r1', status: 'in_progress', service_tier: 'auto', output: [] } }),
        typedEvent('response.output_text.delta', { sequence_number: 1, item_id: 'm', output_index: 0, content_index: 0, delta: 'Hello there' }),
        typedEvent('response.completed', {
          sequence_number: 2,
          response: { id: 'r1', status: 'completed', service_tier: 'priority', output: [], usage: { input_tokens: 9, output_tokens: 2, total_tokens: 11 } },
        }),
      ]),
    );
    expect(r.outcome).toBe('success');
    expect(r.evidence.servedServiceTier).toBe('priority');
  });

  it('anthropic-messages: usage.service_tier of message_start', async () => {
    const r = await parseWholeBody(
      'anthropic-messages',
      sseBody([
        typedEvent('message_start', {
          message: { id: 'm', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 12, output_tokens: 1, service_tier: 'standard' } },
        }),
        typedEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
        typedEvent('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } }),
        typedEvent('message_stop'),
      ]),
    );
    expect(r.outcome).toBe('success');
    expect(r.flags.unrecognizedShape).toBe(false);
    expect(r.evidence.servedServiceTier).toBe('standard');
  });
});

describe('the served tier against the declared one', () => {
  const priority = { parameter: 'service_tier', value: 'priority' } as const;
  it('is a mismatch only when a concrete OpenAI tier was asked and another named', () => {
    expect(findServiceTierMismatch('openai-chat', priority, 'default')).toEqual({ asked: 'priority', served: 'default' });
    expect(findServiceTierMismatch('openai-responses', priority, 'flex')).toEqual({ asked: 'priority', served: 'flex' });
    expect(findServiceTierMismatch('openai-chat', priority, 'priority')).toBeNull();
    expect(findServiceTierMismatch('openai-chat', priority, 'Priority')).toBeNull();
    // nothing named is no evidence; auto asks for no tier in particular; no declaration, nothing asked
    expect(findServiceTierMismatch('openai-chat', priority, null)).toBeNull();
    expect(findServiceTierMismatch('openai-chat', { parameter: 'service_tier', value: 'auto' }, 'default')).toBeNull();
    expect(findServiceTierMismatch('openai-chat', null, 'default')).toBeNull();
    // Anthropic answers in other words than it is asked in: recorded, not compared
    expect(findServiceTierMismatch('anthropic-messages', { parameter: 'service_tier', value: 'standard_only' }, 'standard')).toBeNull();
  });

  it('a mismatch misses the objective even above its threshold; without one the speed decides', () => {
    const objective: TierObjective = { share: 0.99, minOutputTokensPerSecond: 50, maxTtftMs: null, sourceUrl: 'https://openai.com/api-priority-processing/' };
    const fast = { outcome: 'success' as const, outputTokensPerSecond: 120, ttftMs: 300 };
    expect(judgeTierObjective(objective, fast)).toBe(1);
    expect(judgeTierObjective(objective, { ...fast, serviceTierMismatch: null })).toBe(1);
    expect(judgeTierObjective(objective, { ...fast, serviceTierMismatch: { asked: 'priority', served: 'default' } })).toBe(0);
    // nothing to judge stays nothing: a failure, or no objective
    expect(judgeTierObjective(objective, { ...fast, outcome: 'error', serviceTierMismatch: { asked: 'priority', served: 'default' } })).toBeNull();
    expect(judgeTierObjective(null, { ...fast, serviceTierMismatch: { asked: 'priority', served: 'default' } })).toBeNull();
  });
});
