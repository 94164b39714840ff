/**
 * `tokenpace budget [--provider SLUG,...] [--cron "* * * * *"] [--json]` prints the probe budget of
 * the whole catalog per day before any key is set: per provider and in total, the requests, input
 * and output tokens (upper bound: full output budgets) and the cost at the declared prices
 * (lib/catalog/probe-budget). Reads the catalog data only (no database). Retired endpoints are left
 * out (never probed). Exit codes: 0 printed, 2 bad usage (unknown provider, bad cron).
 */
import { parseArgs } from 'node:util';
import { CATALOG } from '@/lib/catalog/catalog-data';
import { catalogBudget, type DailyBudget } from '@/lib/catalog/probe-budget';
import { slotMinutesForCron } from '@/lib/probe/cadence';
import { UsageError } from './usage-error';

/** Parses the arguments; throws UsageError naming the bad option. */
export function parseBudgetArgs(argv: string[]): { providers: string[]; cron: string; json: boolean } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: false, options: { provider: { type: 'string' }, cron: { type: 'string' }, json: { type: 'boolean' } } });
  } catch (e) {
    throw new UsageError(`budget: ${(e as Error).message}`);
  }
  const providers = parsed.values.provider ? parsed.values.provider.split(',').map((s) => s.trim()).filter(Boolean) : [];
  const known = new Set(CATALOG.providers.map((p) => p.slug));
  for (const p of providers) if (!known.has(p)) throw new UsageError(`budget: --provider: no provider "${p}" in the catalog (${[...known].join(', ')})`);
  const cron = parsed.values.cron ?? '* * * * *';
  if (cron.trim().split(/\s+/).length !== 5) throw new UsageError('budget: --cron: expected five fields, e.g. "*/5 * * * *"');
  return { providers, cron, json: Boolean(parsed.values.json) };
}

const n = (v: number) => Math.round(v).toLocaleString('en-US');
const usd = (v: number | null) => (v === null ? 'unknown' : `$${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);

/** The budget as printed: one table row per provider, then the total. */
export function formatBudget(rows: Array<{ name: string } & DailyBudget>, total: DailyBudget, slotMinutes: number): string {
  const head = ['provider', 'endpoints', 'requests/day', 'input tokens/day', 'output tokens/day', 'cost/day (declared prices)', 'unpriced'];
  const body = [...rows.map((r) => [r.name, String(r.endpoints), n(r.requestsPerDay), n(r.inputTokensPerDay), n(r.outputTokensPerDay), usd(r.costUsdPerDay), String(r.unpricedEndpoints)]), ['total', String(total.endpoints), n(total.requestsPerDay), n(total.inputTokensPerDay), n(total.outputTokensPerDay), usd(total.costUsdPerDay), String(total.unpricedEndpoints)]];
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [
    `Probe budget per day of the catalog's listed endpoints (slot ${slotMinutes} min; output tokens are the full output budgets, an upper bound; cost of the priced endpoints at their declared prices, unpriced ones unknown):`,
    line(head),
    ...body.slice(0, -1).map(line),
    line(body.at(-1)!),
  ].join('\n');
}

/** Runs `budget ...`; prints to stdout; returns the exit code. */
export async function runBudgetCommand(argv: string[]): Promise<number> {
  const { providers, cron, json } = parseBudgetArgs(argv);
  const slotMinutes = slotMinutesForCron(cron);
  const listed = CATALOG.endpoints.filter((e) => !e.retiredOn && (providers.length === 0 || providers.includes(e.providerSlug)));
  const { byProvider, total } = catalogBudget(
    listed.map((e) => ({ slug: e.slug, providerSlug: e.providerSlug, contextWindowTokens: e.contextWindowTokens, pricing: e.pricing })),
    slotMinutes,
  );
  const names = new Map(CATALOG.providers.map((p) => [p.slug, p.name]));
  const rows = byProvider.map((r) => ({ ...r, name: names.get(r.providerSlug) ?? r.providerSlug }));
  console.log(json ? JSON.stringify({ slotMinutes, byProvider: rows, total }) : formatBudget(rows, total, slotMinutes));
  return 0;
}
