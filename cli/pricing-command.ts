/**
 * `tokenpace pricing <endpoint-slug> --input USD --output USD [--cached USD] --source URL --as-of YYYY-MM-DD`
 * declares an endpoint's prices as an admin (the operator on the machine is trusted; logged in the
 * audit table); `tokenpace pricing <endpoint-slug> --clear` removes them. Prices are USD per
 * million tokens, always with the public page they were read from and the date (lib/catalog/pricing).
 * Works on DATABASE_URL, else the embedded server under the data dir.
 * Exit codes: 0 done, 1 no such endpoint, 2 bad usage.
 */
import { parseArgs } from 'node:util';
import { openDb } from '@/db/client';
import { setEndpointPricing } from '@/db/queries/pricing';
import { endpointPricingSchema, type EndpointPricing } from '@/lib/catalog/pricing';
import { acquireDatabase } from './database';
import { UsageError } from './usage-error';

/**
 * Parses the arguments (without touching the database): the slug and the pricing, or null for
 * --clear. Throws UsageError naming the bad option.
 */
export function parsePricingArgs(argv: string[]): { slug: string; pricing: EndpointPricing | null } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        input: { type: 'string' },
        output: { type: 'string' },
        cached: { type: 'string' },
        source: { type: 'string' },
        'as-of': { type: 'string' },
        clear: { type: 'boolean' },
      },
    });
  } catch (e) {
    throw new UsageError(`pricing: ${(e as Error).message}`);
  }
  const { values: v, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError('pricing: expected one endpoint slug');
  const slug = positionals[0]!;
  if (v.clear) {
    if (v.input ?? v.output ?? v.cached ?? v.source ?? v['as-of']) throw new UsageError('pricing: --clear takes no prices');
    return { slug, pricing: null };
  }
  const num = (name: string, raw: string | undefined) => (raw === undefined ? undefined : /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : NaN);
  const candidate = {
    inputUsdPerMTokens: num('input', v.input),
    outputUsdPerMTokens: num('output', v.output),
    cachedInputUsdPerMTokens: num('cached', v.cached) ?? null,
    currency: 'USD',
    source: v.source,
    asOf: v['as-of'],
  };
  const r = endpointPricingSchema.safeParse(candidate);
  if (!r.success) {
    const flag: Record<string, string> = {
      inputUsdPerMTokens: '--input',
      outputUsdPerMTokens: '--output',
      cachedInputUsdPerMTokens: '--cached',
      source: '--source',
      asOf: '--as-of',
    };
    const issue = r.error.issues[0]!;
    const name = flag[String(issue.path[0])] ?? String(issue.path[0]);
    throw new UsageError(
      `pricing: ${name}: ${issue.code === 'invalid_type' ? 'required (a number of USD per million tokens, a URL or a date)' : issue.message}`,
    );
  }
  return { slug, pricing: r.data };
}

/** Runs `pricing ...`; returns the exit code. */
export async function runPricingCommand(argv: string[]): Promise<number> {
  const { slug, pricing } = parsePricingArgs(argv);
  const database = await acquireDatabase();
  const { db, close } = openDb(database.url, 2);
  try {
    const id = await setEndpointPricing(db, { slug, pricing, actorUserId: null });
    if (id === null) {
      console.error(`tokenpace: no endpoint with slug ${slug}`);
      return 1;
    }
    console.log(
      pricing
        ? `endpoint ${slug} (${id}): pricing declared (input ${pricing.inputUsdPerMTokens}, output ${pricing.outputUsdPerMTokens} USD per M tokens, ${pricing.source}, ${pricing.asOf})`
        : `endpoint ${slug} (${id}): pricing cleared`,
    );
    return 0;
  } finally {
    await close();
    await database.release();
  }
}
