import type { EndpointPricing } from '../pricing';

/**
 * A declared price for tests: USD 0.20 per million input tokens, 0.60 per million output tokens,
 * no cached-input price, read at https://example.com/pricing on 2026-11-30.
 */
export const EXAMPLE_PRICING = {
  inputUsdPerMTokens: 0.2,
  outputUsdPerMTokens: 0.6,
  cachedInputUsdPerMTokens: null,
  currency: 'USD',
  source: 'https://example.com/pricing',
  asOf: '2026-11-30',
} as const satisfies EndpointPricing;
