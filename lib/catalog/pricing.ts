/**
 * Declared prices of an endpoint. Prices are DECLARED (by the endpoint's owner at submission or by
 * an admin), always with a public source URL and the date the price was read; they are shown as
 * declared, never as measured. `null` pricing means nobody has declared one.
 *
 * Units: US dollars per million tokens (the unit every provider's price page uses). Cached input is
 * the price of prompt tokens served from the provider's prompt cache (null when not offered).
 */
import { z } from 'zod';

/** Pricing as stored in `endpoints.pricing` and returned by the API. */
export const endpointPricingSchema = z
  .object({
    inputUsdPerMTokens: z.number().nonnegative().max(10_000).meta({ description: 'Price of input (prompt) tokens, USD per million tokens, as declared.' }),
    outputUsdPerMTokens: z.number().nonnegative().max(10_000).meta({ description: 'Price of output (generated) tokens, USD per million tokens, as declared.' }),
    cachedInputUsdPerMTokens: z
      .number()
      .nonnegative()
      .max(10_000)
      .nullable()
      .meta({ description: 'Price of input tokens served from the prompt cache, USD per million tokens; null when not offered or not declared.' }),
    /** ISO 4217; only USD is accepted so blended prices compare. */
    currency: z.literal('USD').meta({ description: 'ISO 4217 currency; only USD, so blended prices compare.' }),
    /** Public page the price was read from. */
    source: z
      .string()
      .url()
      .max(2000)
      .refine((u) => /^https?:\/\//i.test(u), 'source must be an http(s) URL')
      .meta({ description: 'Public page the price was read from (http(s) URL).' }),
    /** Date the price was read from the source, YYYY-MM-DD. */
    asOf: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'asOf must be a date YYYY-MM-DD')
      .meta({ description: 'Date the price was read from the source, YYYY-MM-DD.' }),
  })
  .strict();
export type EndpointPricing = z.infer<typeof endpointPricingSchema>;

/** The blend of {@link blendedUsdPerMTokens}: 3 input tokens per output token (Artificial Analysis' blend). */
export const PRICE_BLEND = { input: 3, output: 1 } as const;

/**
 * Blended price, USD per million tokens: (3 × input + 1 × output) ÷ 4, the 3:1 input:output blend
 * Artificial Analysis publishes ("Price (USD per M tokens, blended 3:1)"). Null when no pricing.
 * Rounded to 1e-6 USD per M tokens: binary floating point would otherwise publish 0.30000000000000004
 * for a blend of 0.2 and 0.6 (issue #23, low items); no price is declared that finely.
 */
export function blendedUsdPerMTokens(pricing: Pick<EndpointPricing, 'inputUsdPerMTokens' | 'outputUsdPerMTokens'> | null): number | null {
  if (!pricing) return null;
  const blended =
    (PRICE_BLEND.input * pricing.inputUsdPerMTokens + PRICE_BLEND.output * pricing.outputUsdPerMTokens) / (PRICE_BLEND.input + PRICE_BLEND.output);
  return Math.round(blended * 1e6) / 1e6;
}

/**
 * Cost in USD of `inputTokens` + `outputTokens` at `pricing` (uncached input). Null when no pricing.
 */
export function costUsd(
  pricing: Pick<EndpointPricing, 'inputUsdPerMTokens' | 'outputUsdPerMTokens'> | null,
  inputTokens: number,
  outputTokens: number,
): number | null {
  if (!pricing) return null;
  return (inputTokens * pricing.inputUsdPerMTokens + outputTokens * pricing.outputUsdPerMTokens) / 1_000_000;
}
