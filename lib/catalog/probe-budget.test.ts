import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WORKLOADS } from '@/lib/probe/workloads';
import { parseBudgetArgs } from '@/cli/budget-command';
import { CATALOG } from './catalog-data';
import { catalogBudget, endpointDailyBudget, FAMILY_BUDGET_CEILING, familyBudgetIncrease, sumBudgets } from './probe-budget';

const price = { inputUsdPerMTokens: 1, outputUsdPerMTokens: 4 };

describe('probe budget', () => {
  it('one endpoint: headline every slot, every other fitting workload 8 a day; tokens and cost by hand', () => {
    for (const ctx of [null, 131_072]) {
      const b = endpointDailyBudget({ slug: 'x', providerSlug: 'p', contextWindowTokens: ctx, pricing: price }, 1, WORKLOADS);
      // an undeclared window runs up to the ~10k prompts; 131,072 tokens also the ~100k ones
      const ws = WORKLOADS.filter((w) => (ctx === null ? w.inputTokensTarget <= 10_000 : true));
      expect(ws.length).toBe(ctx === null ? 12 : 16);
      const perDay = (w: (typeof WORKLOADS)[number]) => (w.headline ? 1440 : 8);
      const requests = ws.reduce((s, w) => s + perDay(w), 0);
      const input = ws.reduce((s, w) => s + perDay(w) * w.inputTokensTarget, 0);
      const output = ws.reduce((s, w) => s + perDay(w) * w.maxOutputTokens, 0);
      expect(b.requestsPerDay, String(ctx)).toBe(requests);
      expect(b.inputTokensPerDay).toBe(input);
      expect(b.outputTokensPerDay).toBe(output);
      expect(b.costUsdPerDay).toBeCloseTo((input * 1 + output * 4) / 1e6, 9);
    }
    // a 5-minute slot: the headline 288 a day, the others unchanged
    const one = endpointDailyBudget({ slug: 'x', providerSlug: 'p', contextWindowTokens: null, pricing: null }, 1);
    const five = endpointDailyBudget({ slug: 'x', providerSlug: 'p', contextWindowTokens: null, pricing: null }, 5);
    expect(one.requestsPerDay - five.requestsPerDay).toBe(1440 - 288);
    expect(five.costUsdPerDay).toBeNull();
    expect(five.unpricedEndpoints).toBe(1);
    expect(() => endpointDailyBudget({ slug: 'x', providerSlug: 'p', contextWindowTokens: null, pricing: null }, 0)).toThrow(RangeError);
    expect(() => endpointDailyBudget({ slug: 'x', providerSlug: 'p', contextWindowTokens: null, pricing: null }, 1.5)).toThrow(RangeError);
  });

  it('the families add 23 requests a day per endpoint (8 prompt-cache, 8 structured, 3 agent turns, 4 cache-lifetime), within the 2 % ceiling', () => {
    for (const ctx of [null, 131_072]) {
      const e = { slug: 'x', providerSlug: 'p', contextWindowTokens: ctx, pricing: price };
      const f = familyBudgetIncrease(e);
      expect(f.after.requestsPerDay - f.before.requestsPerDay).toBe(16 + 3 + 4);
      expect(f.after.inputTokensPerDay - f.before.inputTokensPerDay).toBe(8 * 2000 + 8 * 1000 + (1100 + 1656 + 2212) + 4 * 1100);
      expect(f.after.outputTokensPerDay - f.before.outputTokensPerDay).toBe(23 * 256);
      expect(f.after).toEqual(endpointDailyBudget(e));
      expect(f.requestsShare).toBeLessThanOrEqual(FAMILY_BUDGET_CEILING);
      expect(f.inputShare).toBeLessThanOrEqual(FAMILY_BUDGET_CEILING);
      expect(f.withinCeiling).toBe(true);
    }
  });

  it('sums: unknown cost stays out of the sum and is counted; all unknown → null, never 0', () => {
    const a = endpointDailyBudget({ slug: 'a', providerSlug: 'p', contextWindowTokens: null, pricing: price });
    const b = endpointDailyBudget({ slug: 'b', providerSlug: 'p', contextWindowTokens: null, pricing: null });
    const s = sumBudgets([a, b]);
    expect(s.costUsdPerDay).toBe(a.costUsdPerDay);
    expect(s.unpricedEndpoints).toBe(1);
    expect(s.requestsPerDay).toBe(a.requestsPerDay + b.requestsPerDay);
    expect(sumBudgets([b, b]).costUsdPerDay).toBeNull();
    const whole = catalogBudget([
      { slug: 'a', providerSlug: 'p', contextWindowTokens: null, pricing: price },
      { slug: 'c', providerSlug: 'q', contextWindowTokens: null, pricing: null },
    ]);
    expect(whole.byProvider.map((r) => r.providerSlug)).toEqual(['p', 'q']);
    expect(whole.total.endpoints).toBe(2);
  });

  it('`tokenpace budget --json` prints the whole catalog (retired left out); the provider rows add up to the total', () => {
    const out = execFileSync(process.execPath, [path.join(__dirname, '..', '..', 'bin', 'tokenpace.mjs'), 'budget', '--json'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    const r = JSON.parse(out) as {
      slotMinutes: number;
      byProvider: Array<{ endpoints: number; requestsPerDay: number; costUsdPerDay: number | null }>;
      total: { endpoints: number; requestsPerDay: number; costUsdPerDay: number };
    };
    expect(r.slotMinutes).toBe(1);
    expect(r.total.endpoints).toBe(CATALOG.endpoints.filter((e) => !e.retiredOn).length);
    expect(r.byProvider.reduce((s, p) => s + p.requestsPerDay, 0)).toBe(r.total.requestsPerDay);
    expect(r.byProvider.reduce((s, p) => s + (p.costUsdPerDay ?? 0), 0)).toBeCloseTo(r.total.costUsdPerDay, 6);
    expect(parseBudgetArgs(['--provider', 'groq', '--cron', '*/5 * * * *'])).toEqual({ providers: ['groq'], cron: '*/5 * * * *', json: false });
    expect(() => parseBudgetArgs(['--provider', 'nope'])).toThrow(/--provider: no provider "nope"/);
    expect(() => parseBudgetArgs(['--cron', '* *'])).toThrow(/--cron/);
    expect(() => parseBudgetArgs(['--bogus'])).toThrow(/budget:/);
  });
});
