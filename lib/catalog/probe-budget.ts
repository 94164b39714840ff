/**
 * The probe budget of the catalog: what probing every listed catalog endpoint would send per day
 * (requests, input and output tokens) and cost at its declared prices, before the operator turns
 * provider keys on (`tokenpace budget`, decision 222). The cadence is lib/probe/cadence's: the
 * headline workload every slot (1,440 ÷ slot minutes a day), every other workload that fits the
 * endpoint's declared context window 8 times a day. Input tokens are the workloads' prompt targets
 * (o200k), output tokens their full output budget (max_tokens): an upper bound, since answers may
 * stop early. Cost = tokens × the declared USD per million tokens (uncached input; lib/catalog/pricing
 * costUsd); an endpoint without a declared price has cost null (unknown, never 0) and is counted apart.
 * The families with their own cadence (the prompt-cache pair) count at that cadence, both members.
 */
import { probesPerDay } from '@/lib/probe/cadence';
import { ALL_WORKLOADS, fitsContextWindow, WORKLOADS, type Workload } from '@/lib/probe/workloads';
import { costUsd, type EndpointPricing } from './pricing';

/** What the budget needs of an endpoint. */
export interface BudgetEndpoint {
  slug: string;
  providerSlug: string;
  contextWindowTokens: number | null;
  pricing: Pick<EndpointPricing, 'inputUsdPerMTokens' | 'outputUsdPerMTokens'> | null;
}

/** Daily figures of one endpoint or a sum of them. */
export interface DailyBudget {
  endpoints: number;
  requestsPerDay: number;
  inputTokensPerDay: number;
  outputTokensPerDay: number;
  /** USD per day of the priced endpoints (null when none is priced) */
  costUsdPerDay: number | null;
  /** endpoints without a declared price (their cost is unknown, not in costUsdPerDay) */
  unpricedEndpoints: number;
}

/**
 * One endpoint's requests and tokens per day at a slot of `slotMinutes` (the probe cron's, 1 by
 * default). A slot longer than a minute runs the headline workload less often; the others keep
 * their 8 a day (every phase point falls in some slot).
 * @throws RangeError when slotMinutes is not a whole number ≥ 1
 */
export function endpointDailyBudget(e: BudgetEndpoint, slotMinutes = 1, workloads: readonly Workload[] = ALL_WORKLOADS): DailyBudget {
  if (!Number.isInteger(slotMinutes) || slotMinutes < 1) throw new RangeError(`slotMinutes must be a whole number ≥ 1, got ${slotMinutes}`);
  const fitting = workloads.filter((w) => fitsContextWindow(w, e.contextWindowTokens));
  const perDay = (w: Workload) => probesPerDay(w, slotMinutes);
  const requestsPerDay = fitting.reduce((s, w) => s + perDay(w), 0);
  const inputTokensPerDay = fitting.reduce((s, w) => s + perDay(w) * w.inputTokensTarget, 0);
  const outputTokensPerDay = fitting.reduce((s, w) => s + perDay(w) * w.maxOutputTokens, 0);
  const cost = costUsd(e.pricing, inputTokensPerDay, outputTokensPerDay);
  return { endpoints: 1, requestsPerDay, inputTokensPerDay, outputTokensPerDay, costUsdPerDay: cost, unpricedEndpoints: cost === null ? 1 : 0 };
}

/**
 * The ceiling of the workload families beyond the grid (the prompt-cache pair, issue 25): together
 * they may add at most this share to one endpoint's daily requests and to its daily input tokens
 * (grid only → with the families). Decision 260; `tokenpace budget` prints both and the ceiling.
 */
export const FAMILY_BUDGET_CEILING = 0.02;

/** One endpoint's daily budget of the grid alone and with the families, the increase as shares, and whether it is within the ceiling. */
export function familyBudgetIncrease(e: BudgetEndpoint, slotMinutes = 1) {
  const before = endpointDailyBudget(e, slotMinutes, WORKLOADS);
  const after = endpointDailyBudget(e, slotMinutes, ALL_WORKLOADS);
  const requestsShare = after.requestsPerDay / before.requestsPerDay - 1;
  const inputShare = after.inputTokensPerDay / before.inputTokensPerDay - 1;
  return { before, after, requestsShare, inputShare, withinCeiling: requestsShare <= FAMILY_BUDGET_CEILING && inputShare <= FAMILY_BUDGET_CEILING };
}

/** Adds daily budgets (cost: the sum of the known ones, null when none is known). */
export function sumBudgets(parts: readonly DailyBudget[]): DailyBudget {
  const known = parts.filter((p) => p.costUsdPerDay !== null);
  return {
    endpoints: parts.reduce((s, p) => s + p.endpoints, 0),
    requestsPerDay: parts.reduce((s, p) => s + p.requestsPerDay, 0),
    inputTokensPerDay: parts.reduce((s, p) => s + p.inputTokensPerDay, 0),
    outputTokensPerDay: parts.reduce((s, p) => s + p.outputTokensPerDay, 0),
    costUsdPerDay: known.length ? known.reduce((s, p) => s + p.costUsdPerDay!, 0) : null,
    unpricedEndpoints: parts.reduce((s, p) => s + p.unpricedEndpoints, 0),
  };
}

/** The catalog's budget per provider (by slug, in the order given) and in total. */
export function catalogBudget(
  endpoints: readonly BudgetEndpoint[],
  slotMinutes = 1,
  workloads: readonly Workload[] = ALL_WORKLOADS,
): { byProvider: Array<{ providerSlug: string } & DailyBudget>; total: DailyBudget } {
  const per = endpoints.map((e) => ({ e, b: endpointDailyBudget(e, slotMinutes, workloads) }));
  const providers = [...new Set(endpoints.map((e) => e.providerSlug))];
  const byProvider = providers.map((p) => ({ providerSlug: p, ...sumBudgets(per.filter((x) => x.e.providerSlug === p).map((x) => x.b)) }));
  return { byProvider, total: sumBudgets(per.map((x) => x.b)) };
}
