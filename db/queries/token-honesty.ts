import { and, desc, eq, gt, gte, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { endpoints, measurements, models } from '../schema';
import { ratioOfSumsInterval, type RatioInterval } from '@/lib/stats/ratio-interval';
import { judgeTokenHonesty, tokenizerBandOf, type TokenizerBand } from '@/lib/tokens/tokenizer-families';

/** Most measurements one honesty ratio reads (the newest of the window). */
export const TOKEN_HONESTY_MAX_ROWS = 5000;

/** One endpoint's token-honesty figure over a window (decision 175). */
export interface TokenHonesty {
  /**
   * Provider-reported visible output tokens ÷ o200k_base count of the text received, summed over
   * the window's successful measurements that have both (hidden reasoning tokens, which the
   * provider counts but never streams, are taken out of the reported side; decision 065), with its
   * percentile-bootstrap 95 % interval (lib/stats/ratio-interval); null without such measurements.
   */
  ratio: RatioInterval | null;
  /** Σ reported visible tokens and Σ o200k tokens behind the ratio */
  reportedTokens: number;
  o200kTokens: number;
  /** the band the model's tokenizer family should show (lib/tokens/tokenizer-families; an assumption, with its reason) */
  expected: TokenizerBand;
  /** `within`, `over_reported` (whole interval above the band), `under_reported`, or null without a ratio */
  verdict: 'within' | 'over_reported' | 'under_reported' | null;
}

/**
 * The token-honesty ratio of one endpoint over [from, to] (all workloads, the newest
 * TOKEN_HONESTY_MAX_ROWS measurements). Bounded: one indexed range read.
 */
export async function getTokenHonesty(db: Db, p: { endpointId: number; from: Date; to: Date }): Promise<TokenHonesty> {
  const [family] = await db
    .select({ family: models.family })
    .from(endpoints)
    .innerJoin(models, eq(models.id, endpoints.modelId))
    .where(eq(endpoints.id, p.endpointId))
    .limit(1);
  const rows = await db
    .select({
      reported: sql<number>`(${measurements.outputTokensReported} - coalesce(${measurements.reasoningTokensHidden}, 0))::float8`,
      o200k: sql<number>`${measurements.outputTokensO200k}::float8`,
    })
    .from(measurements)
    .where(
      and(
        eq(measurements.endpointId, p.endpointId),
        gte(measurements.measuredAt, p.from),
        lte(measurements.measuredAt, p.to),
        eq(measurements.outcome, 'success'),
        isNotNull(measurements.outputTokensReported),
        gt(measurements.outputTokensO200k, 0),
      ),
    )
    .orderBy(desc(measurements.measuredAt))
    .limit(TOKEN_HONESTY_MAX_ROWS);
  const reported = rows.map((r) => Math.max(0, Number(r.reported)));
  const o200k = rows.map((r) => Number(r.o200k));
  const ratio = ratioOfSumsInterval(reported, o200k);
  const expected = tokenizerBandOf(family?.family ?? null);
  return {
    ratio,
    reportedTokens: reported.reduce((a, b) => a + b, 0),
    o200kTokens: o200k.reduce((a, b) => a + b, 0),
    expected,
    verdict: ratio ? judgeTokenHonesty(ratio, expected) : null,
  };
}
