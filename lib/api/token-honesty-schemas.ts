/**
 * GET /api/v1/endpoints/{id}/token-honesty (decision 175): query and response schemas (zod →
 * OpenAPI), matching db/queries/token-honesty.ts.
 */
import { z } from 'zod';
import { trailingWindowQuerySchema } from './schemas';

export const tokenHonestyQuerySchema = trailingWindowQuerySchema;

export const tokenHonestySchema = z
  .object({
    endpointId: z.number().int().meta({ description: 'Endpoint id.' }),
    windowStart: z.string().meta({ format: 'date-time', description: 'Start of the window (UTC, inclusive).' }),
    asOf: z.string().meta({ format: 'date-time', description: 'End of the window (UTC, the current minute).' }),
    ratio: z
      .object({
        ratio: z.number().meta({
          description:
            'Σ provider-reported visible output tokens ÷ Σ o200k_base tokens of the text received, over the window’s successful measurements with both counts (hidden reasoning tokens taken out of the reported side).',
        }),
        low: z.number().meta({
          description:
            'Lower end of the percentile-bootstrap 95 % interval of the ratio (1,000 resamples of the measurements, seeded; Efron & Tibshirani 1993).',
        }),
        high: z.number().meta({ description: 'Upper end of that interval.' }),
        n: z.number().int().meta({ description: 'Measurements behind the ratio (the newest 5,000 of the window at most).' }),
      })
      .nullable()
      .meta({ description: 'Token-honesty ratio with its interval; null without successful measurements that report a count.' }),
    reportedTokens: z.number().meta({ description: 'Σ provider-reported visible output tokens behind the ratio.' }),
    o200kTokens: z.number().meta({ description: 'Σ o200k_base tokens of the received text behind the ratio.' }),
    expected: z
      .object({
        tokenizer: z.string().meta({ description: 'The model’s tokenizer family.' }),
        low: z.number().meta({ description: 'Lowest ratio the tokenizer should show on our probes’ text.' }),
        high: z.number().meta({ description: 'Highest ratio it should show.' }),
        assumption: z.string().meta({ description: 'What the band rests on (an assumption unless it says measured).' }),
      })
      .meta({ description: 'The ratio the model’s tokenizer family should show (lib/tokens/tokenizer-families).' }),
    verdict: z.enum(['within', 'over_reported', 'under_reported']).nullable().meta({
      description:
        'over_reported / under_reported when the whole 95 % interval lies above / below the expected band (flagged on the endpoint page); within otherwise; null without a ratio. Rankings use the o200k count, so an over-report gains no rank.',
    }),
  })
  .meta({ id: 'TokenHonesty' });
