import { describe, expect, it } from 'vitest';
import { getAdapter } from './adapters/registry';
import { checkServiceTier, judgeTierObjective, serviceTierFields, type TierObjective } from './service-tier';

const objective = (o: Partial<TierObjective>): TierObjective => ({
  share: 0.99,
  minOutputTokensPerSecond: 50,
  maxTtftMs: null,
  sourceUrl: 'https://openai.com/api-priority-processing/',
  ...o,
});
const ok = (outputTokensPerSecond: number | null, ttftMs: number | null = 100) => ({ outcome: 'success' as const, outputTokensPerSecond, ttftMs });

describe('judgeTierObjective', () => {
  it('speed threshold is strict ("99% > 50 tokens per second"): at the threshold misses, just over meets, just under misses', () => {
    const o = objective({});
    expect(judgeTierObjective(o, ok(50))).toBe(0);
    expect(judgeTierObjective(o, ok(50.000001))).toBe(1);
    expect(judgeTierObjective(o, ok(49.999999))).toBe(0);
  });

  it('TTFT threshold is inclusive: at meets, just over misses, just under meets; both thresholds must hold', () => {
    const o = objective({ minOutputTokensPerSecond: null, maxTtftMs: 500 });
    expect(judgeTierObjective(o, ok(null, 500))).toBe(1);
    expect(judgeTierObjective(o, ok(null, 500.000001))).toBe(0);
    expect(judgeTierObjective(o, ok(null, 499.999999))).toBe(1);
    const both = objective({ minOutputTokensPerSecond: 50, maxTtftMs: 500 });
    expect(judgeTierObjective(both, ok(60, 400))).toBe(1);
    expect(judgeTierObjective(both, ok(60, 600))).toBe(0);
    expect(judgeTierObjective(both, ok(40, 400))).toBe(0);
  });

  it('nothing to judge: no objective, a failure, or a figure the objective needs is absent', () => {
    expect(judgeTierObjective(null, ok(100))).toBeNull();
    expect(judgeTierObjective(objective({}), { outcome: 'error', outputTokensPerSecond: null, ttftMs: null })).toBeNull();
    expect(judgeTierObjective(objective({}), ok(null))).toBeNull();
    expect(judgeTierObjective(objective({ minOutputTokensPerSecond: null, maxTtftMs: 500 }), ok(100, null))).toBeNull();
  });
});

describe('service tier parameters', () => {
  it('accepts the documented values on their protocols only', () => {
    expect(checkServiceTier('openai-chat', { parameter: 'service_tier', value: 'priority' })).toBeNull();
    expect(checkServiceTier('openai-chat', { parameter: 'service_tier', value: 'fast' })).toBe(
      'service_tier on openai-chat takes one of auto, default, flex, priority, scale',
    );
    expect(checkServiceTier('openai-chat', { parameter: 'speed', value: 'fast' })).toBe(
      'speed is not a parameter of openai-chat (it is documented for anthropic-messages)',
    );
    expect(checkServiceTier('anthropic-messages', { parameter: 'service_tier', value: 'standard_only' })).toBeNull();
    expect(checkServiceTier('bedrock-converse-stream', { parameter: 'serviceTier.type', value: 'flex' })).toBeNull();
    expect(() => serviceTierFields('gemini-stream', { parameter: 'speed', value: 'fast' })).toThrow(RangeError);
  });

  it('each adapter sends the declared parameter in its documented place, and nothing without a declaration', () => {
    const base = { model: 'm', apiKey: 'k', prompt: 'hi', maxOutputTokens: 16 };
    const body = (protocol: Parameters<typeof getAdapter>[0], url: string, tier: Parameters<typeof serviceTierFields>[1] | null) => {
      const built = getAdapter(protocol).buildRequest({ ...base, url, serviceTier: tier });
      return { body: JSON.parse(built.init.body) as Record<string, unknown>, headers: built.init.headers };
    };
    expect(body('openai-chat', 'https://api.openai.com/v1', { parameter: 'service_tier', value: 'priority' }).body.service_tier).toBe('priority');
    expect(body('openai-responses', 'https://api.openai.com/v1', { parameter: 'service_tier', value: 'flex' }).body.service_tier).toBe('flex');
    const fast = body('anthropic-messages', 'https://api.anthropic.com', { parameter: 'speed', value: 'fast' });
    expect(fast.body.speed).toBe('fast');
    expect(fast.headers['anthropic-beta']).toBe('fast-mode-2026-02-01');
    expect(
      body('bedrock-converse-stream', 'https://bedrock-runtime.us-east-1.amazonaws.com', { parameter: 'serviceTier.type', value: 'priority' }).body.serviceTier,
    ).toEqual({
      type: 'priority',
    });
    const vertex = body('gemini-stream', 'https://aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/google', {
      parameter: 'X-Vertex-AI-LLM-Shared-Request-Type',
      value: 'priority',
    });
    expect(vertex.headers['x-vertex-ai-llm-shared-request-type']).toBe('priority');
    expect(vertex.body).not.toHaveProperty('service_tier');
    const plain = body('openai-chat', 'https://api.openai.com/v1', null);
    expect(plain.body).not.toHaveProperty('service_tier');
    expect(Object.keys(plain.body).sort()).toEqual(['max_tokens', 'messages', 'model', 'stream', 'stream_options']);
  });
});
