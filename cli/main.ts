/**
 * `tokenpace` command line. Usage:
 *   tokenpace start                         web + workers (+ embedded Postgres without DATABASE_URL)
 *   tokenpace import llmperf <dir>          LLMPerf leaderboard individual/*.json as a dataset
 *   tokenpace import claims <file>          published claims file
 *   tokenpace reference-server --port P --tps R --ttft-ms T [--tokens-per-chunk K] [--output-tokens N] [--capacity-tps C]
 *   tokenpace reference-server --gaming --port P [--host H]
 *   tokenpace probe <url> --model M [...]   one measurement, printed (--record FILE: also as a replay case)
 *   tokenpace replay FILE [--expect]        replay a stream case through the probe (compare with its expect)
 *   tokenpace sweep <url> --model M [...]   concurrency sweep (TPS/user vs aggregate), printed
 *   tokenpace migrate                       apply migrations to DATABASE_URL (or the embedded server)
 *   tokenpace admin grant|revoke <email>    give or take the admin role of an account
 *   tokenpace pricing <slug> --input --output --source --as-of   declare an endpoint's prices (admin)
 *   tokenpace budget [--provider S] [--cron C] [--json]   the catalog's probe budget per day (requests, tokens, cost)
 *   tokenpace verify <url|file> [--keys K]  check the signatures of a snapshot, board, manifest or dump
 *   tokenpace rotate-signing-key            retire the signing key and create a new one (old keys stay published)
 * Exit codes: 0 ok, 1 failure, 2 bad usage.
 */
import { UsageError } from './usage-error';

const USAGE = `usage: tokenpace <command> [options]
commands:
  start                                   start web + workers (embedded Postgres unless DATABASE_URL is set)
  import llmperf <dir>                    import LLMPerf individual/*.json files as a dataset
  import claims <file>                    import a published-claims JSON file
  reference-server --port P --tps R --ttft-ms T [--tokens-per-chunk K] [--output-tokens N] [--capacity-tps C]
                  [--prefix-cache-hit-ttft-ms MS [--cache-ttl-s S]]   a prefix cache (hit TTFT MS, blocks forgotten S s after last use)
  reference-server --gaming --port P [--host H]   every issue-20 gaming trick, chosen by the request's model id
  probe <url> --model M [--protocol P] [--api-key-env NAME] [--allow-private] [--json] [--timeline] [--record FILE]
  replay FILE [--expect] [--json] [--timeline]   replay a recorded stream case locally through the probe
  sweep <url> --model M [--protocol P] [--api-key-env NAME] [--concurrency 1,2,4,...] [--duration-s S] [--allow-private] [--json]
  migrate                                 apply database migrations
  rotate-key --new-key-file <path>        re-encrypt stored API keys under a new key
  admin grant <email>                     make an existing account an admin (admin revoke <email> undoes it)
  pricing <endpoint-slug> --input USD --output USD [--cached USD] --source URL --as-of YYYY-MM-DD   declare prices per M tokens (--clear removes)
  budget [--provider SLUG,...] [--cron "* * * * *"] [--json]   probe budget per day of the whole catalog (requests, tokens, cost at declared prices)
  verify <url|file> [--keys <url|file>] [--signature <header value>]   check Tokenpace signatures (offline for files)
  rotate-signing-key                      retire the current signing key, create a new one (older signatures keep verifying)`;

/** Guarded fetch for the endpoint commands: every stream goes through lib/security's SSRF guard. */
async function guardedFetchFactory() {
  const { createGuardedFetch } = await import('@/lib/security/ssrf-guard');
  return (o: { allowPrivate: boolean }) => createGuardedFetch({ allowPrivate: o.allowPrivate });
}

/** Each command, loaded on demand; returns the exit code. */
const COMMANDS: Record<string, (rest: string[]) => Promise<number>> = {
  start: async (rest) => (await import('./start-command')).runStartCommand(rest),
  import: async (rest) => (await import('./import-command')).runImportCommand(rest),
  'reference-server': async (rest) => {
    await (await import('./reference-server-command')).runReferenceServerCommand(rest);
    return 0;
  },
  probe: async (rest) => (await import('./probe-command')).runProbeCommand(rest, { createFetch: await guardedFetchFactory() }),
  replay: async (rest) => (await import('./replay-command')).runReplayCommand(rest),
  sweep: async (rest) => (await import('./sweep-command')).runSweepCommand(rest, { createFetch: await guardedFetchFactory() }),
  migrate: async (rest) => (await import('./migrate-command')).runMigrateCommand(rest),
  admin: async (rest) => (await import('./admin-command')).runAdminCommand(rest),
  pricing: async (rest) => (await import('./pricing-command')).runPricingCommand(rest),
  budget: async (rest) => (await import('./budget-command')).runBudgetCommand(rest),
  'rotate-key': async (rest) => (await import('./rotate-key-command')).runRotateKeyCommand(rest),
  verify: async (rest) => (await import('./verify-command')).runVerifyCommand(rest),
  'rotate-signing-key': async (rest) => (await import('./rotate-signing-key-command')).runRotateSigningKeyCommand(rest),
};

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    console.log(USAGE);
    return command === undefined ? 2 : 0;
  }
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!run) throw new UsageError(`unknown command "${command}"`);
  return run(rest);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) {
      console.error(`tokenpace: ${err.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(`tokenpace: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
