import { describe, expect, it } from 'vitest';
import { createEndpointBodySchema, updateEndpointBodySchema } from '../api/submission-schemas';
import { blendedUsdPerMTokens, costUsd, endpointPricingSchema } from './pricing';
import { EXAMPLE_PRICING } from './test-support/example-pricing';

const ok = EXAMPLE_PRICING;

describe('declared pricing', () => {
  it('validates with a source URL and a date; names the bad field', () => {
    expect(endpointPricingSchema.parse(ok)).toEqual(ok);
    for (const [field, value] of [
      ['source', 'ftp://x'],
      ['source', 'not a url'],
      ['asOf', '30/11/2026'],
      ['currency', 'EUR'],
      ['inputUsdPerMTokens', -1],
    ] as const) {
      const r = endpointPricingSchema.safeParse({ ...ok, [field]: value });
      expect(r.success, field).toBe(false);
      expect(r.error!.issues[0]!.path).toEqual([field]);
    }
    expect(endpointPricingSchema.safeParse({ ...ok, extra: 1 }).success).toBe(false);
    const { source: _s, ...noSource } = ok;
    expect(endpointPricingSchema.safeParse(noSource).success).toBe(false);
  });

  it('blend 3:1 input:output and cost', () => {
    // (3 × 0.2 + 0.6) ÷ 4 is 0.30000000000000004 in binary floating point: published as 0.3.
    expect(blendedUsdPerMTokens(ok)).toBe(0.3);
    expect(String(blendedUsdPerMTokens({ inputUsdPerMTokens: 0.1, outputUsdPerMTokens: 0.2 }))).toBe('0.125');
    expect(blendedUsdPerMTokens({ inputUsdPerMTokens: 0.000001, outputUsdPerMTokens: 0.000003 })).toBe(0.000002);
    expect(blendedUsdPerMTokens(null)).toBeNull();
    expect(costUsd(ok, 1_000_000, 500_000)).toBeCloseTo(0.5, 12);
  });

  it('submission bodies accept pricing (optional; PATCH null removes it)', () => {
    const body = {
      provider: 'Acme',
      model: 'llama-4-maverick',
      baseUrl: 'https://api.acme.example/v1',
      protocol: 'openai-chat',
      apiModelId: 'm',
      deploymentKind: 'shared',
      contact: 'ops@acme.example',
    };
    expect(createEndpointBodySchema.safeParse(body).success).toBe(true);
    expect(createEndpointBodySchema.parse({ ...body, pricing: ok }).pricing).toEqual(ok);
    const bad = createEndpointBodySchema.safeParse({ ...body, pricing: { ...ok, source: 'x' } });
    expect(bad.error!.issues[0]!.path).toEqual(['pricing', 'source']);
    expect(updateEndpointBodySchema.parse({ pricing: null }).pricing).toBeNull();
  });
});
