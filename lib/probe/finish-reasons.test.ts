/**
 * Decision 190: every stated finish is clean (normalised), failed (of its kind) or unknown, per protocol.
 */
import { describe, expect, it } from 'vitest';
import { CLEAN_FINISHES, classifyFinish } from './finish-reasons';
import { PROTOCOLS } from './types';

describe('classifyFinish', () => {
  it('has a clean list for every protocol', () => {
    for (const p of PROTOCOLS) expect(Object.keys(CLEAN_FINISHES[p] ?? {}).length, p).toBeGreaterThan(0);
  });

  it.each([
    ['openai-chat', 'stop', 'stop'],
    ['openai-chat', 'STOP', 'stop'],
    ['openai-chat', 'length', 'length'],
    ['openai-chat', 'tool_calls', 'tool_calls'],
    ['openai-chat', 'function_call', 'tool_calls'],
    ['openai-chat', 'eos_token', 'stop'],
    ['openai-chat', 'model_length', 'length'],
    ['anthropic-messages', 'end_turn', 'stop'],
    ['anthropic-messages', 'pause_turn', 'stop'],
    ['anthropic-messages', 'max_tokens', 'length'],
    ['anthropic-messages', 'tool_use', 'tool_calls'],
    ['bedrock-converse-stream', 'stop_sequence', 'stop'],
    ['bedrock-converse-stream', 'model_context_window_exceeded', 'length'],
    ['gemini-stream', 'STOP', 'stop'],
    ['gemini-stream', 'MAX_TOKENS', 'length'],
  ] as const)('%s %s is clean (%s)', (protocol, raw, normal) => {
    expect(classifyFinish(protocol, raw)).toEqual({ verdict: 'clean', finishReason: normal });
  });

  it.each([
    ['openai-chat', 'abort', 'stream_error'],
    ['openai-chat', 'network_error', 'stream_error'],
    ['openai-chat', 'error', 'stream_error'],
    ['openai-chat', 'cancelled', 'stream_error'],
    ['openai-chat', 'canceled', 'stream_error'],
    ['openai-chat', 'timeout', 'stream_error'],
    ['openai-chat', 'upstream_error', 'stream_error'],
    ['openai-chat', 'insufficient_system_resource', 'stream_error'],
    ['openai-chat', 'content_filter', 'stream_error'],
    ['openai-chat', 'rate_limit_exceeded', 'rate_limited'],
    ['anthropic-messages', 'refusal', 'stream_error'],
    ['bedrock-converse-stream', 'guardrail_intervened', 'stream_error'],
    ['bedrock-converse-stream', 'content_filtered', 'stream_error'],
    ['gemini-stream', 'SAFETY', 'stream_error'],
    ['gemini-stream', 'RECITATION', 'stream_error'],
    ['gemini-stream', 'MALFORMED_FUNCTION_CALL', 'stream_error'],
    ['gemini-stream', 'UNEXPECTED_TOOL_CALL', 'stream_error'],
  ] as const)('%s %s fails as %s', (protocol, raw, kind) => {
    const v = classifyFinish(protocol, raw);
    expect(v.verdict).toBe('failed');
    expect(v.verdict === 'failed' && v.errorKind).toBe(kind);
  });

  it.each([
    ['openai-chat', 'COMPLETE'],
    ['openai-chat', 'finished'],
    ['openai-chat', 'stopped'],
    ['gemini-stream', 'OTHER'],
    ['gemini-stream', 'FINISH_REASON_UNSPECIFIED'],
    // words clean on another protocol are not clean here
    ['gemini-stream', 'end_turn'],
    ['anthropic-messages', 'stop'],
    // a failure word must be a whole word: "terror" names none
    ['openai-chat', 'terror'],
  ] as const)('%s %s is unknown', (protocol, raw) => {
    expect(classifyFinish(protocol, raw)).toEqual({ verdict: 'unknown' });
  });

  it('no stated finish is none', () => {
    expect(classifyFinish('openai-chat', null)).toEqual({ verdict: 'none' });
    expect(classifyFinish('openai-chat', '  ')).toEqual({ verdict: 'none' });
  });
});
