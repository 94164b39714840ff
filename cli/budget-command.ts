/**
 * `tokenpace budget [--provider SLUG,...] [--cron "* * * * *"] [--json]` prints the probe budget of
 * the whole catalog per day before any key is set: per provider and in total, the requests, input
 * and output tokens (upper bound: full output budgets) and the cost at the declared prices
 * (lib/catalog/probe-budget). Reads the catalog data only (no database). Retired endpoints are left
 * out (never probed). Then one endpoint's budget per day with the grid alone and with the workload
 * families (the prompt-cache pair, the structured-output workloads, the agent turns and the cache-lifetime series, issue 25), for an undeclared and a 128k context window, against
 * the families' ceiling (FAMILY_BUDGET_CEILING). Exit codes: 0 printed, 2 bad usage (unknown provider, bad cron).
 */
import { parseArgs } from 'node:util';
import { CATALOG } from '@/lib/catalog/catalog-data';
import { catalogBudget, FAMILY_BUDGET_CEILING, familyBudgetIncrease, type DailyBudget } from '@/lib/catalog/probe-budget';
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
  const providers = parsed.values.provider
    ? parsed.values.provider
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
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
  const body = [
    ...rows.map((r) => [
      r.name,
      String(r.endpoints),
      n(r.requestsPerDay),
      n(r.inputTokensPerDay),
      n(r.outputTokensPerDay),
      usd(r.costUsdPerDay),
      String(r.unpricedEndpoints),
    ]),
    [
      'total',
      String(total.endpoints),
      n(total.requestsPerDay),
      n(total.inputTokensPerDay),
      n(total.outputTokensPerDay),
      usd(total.costUsdPerDay),
      String(total.unpricedEndpoints),
    ],
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [
    `Probe budget per day of the catalog's listed endpoints (slot ${slotMinutes} min; output tokens are the full output budgets, an upper bound; cost of the priced endpoints at their declared prices, unpriced ones unknown):`,
    line(head),
    ...body.slice(0, -1).map(line),
    line(body.at(-1)!),
  ].join('\n');
}

/** One endpoint's day before and after the families, for the context windows that change the grid. */
export function perEndpointFamilyBudget(slotMinutes: number) {
  return (
    [
      ['undeclared context window', null],
      ['context window ≥ 111k (runs the ~100k prompts)', 131_072],
    ] as const
  ).map(([label, contextWindowTokens]) => ({
    label,
    ...familyBudgetIncrease({ slug: 'one-endpoint', providerSlug: '-', contextWindowTokens, pricing: null }, slotMinutes),
  }));
}

function formatFamilyBudget(rows: ReturnType<typeof perEndpointFamilyBudget>): string {
  const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
  const lines = rows.flatMap((r) => [
    `  ${r.label}:`,
    `    grid only:          ${n(r.before.requestsPerDay)} requests, ${n(r.before.inputTokensPerDay)} input tokens, ${n(r.before.outputTokensPerDay)} output tokens`,
    `    with the families:  ${n(r.after.requestsPerDay)} requests, ${n(r.after.inputTokensPerDay)} input tokens, ${n(r.after.outputTokensPerDay)} output tokens`,
    `    increase:           +${pct(r.requestsShare)} requests, +${pct(r.inputShare)} input tokens (ceiling ${pct(FAMILY_BUDGET_CEILING)}: ${r.withinCeiling ? 'within' : 'EXCEEDED'})`,
  ]);
  return [
    '',
    'Per endpoint and day, before and after the workload families (cache-cold-2k + cache-warm-2k, structured-json-1k, tool-call-1k, each every 360 min; agent-turn-1..3 and the cache-lifetime series (seed + checks after 2, 5, 15 min), each once a day):',
    ...lines,
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
  const perEndpoint = perEndpointFamilyBudget(slotMinutes);
  console.log(
    json
      ? JSON.stringify({ slotMinutes, byProvider: rows, total, perEndpoint, familyCeiling: FAMILY_BUDGET_CEILING })
      : `${formatBudget(rows, total, slotMinutes)}\n${formatFamilyBudget(perEndpoint)}`,
  );
  return 0;
}
