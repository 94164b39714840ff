/**
 * `tokenpace` command line. Usage:
 *   tokenpace start                         web + workers (+ embedded Postgres without DATABASE_URL)
 *   tokenpace import llmperf <dir>          LLMPerf leaderboard individual/*.json as a dataset
 *   tokenpace import claims <file>          published claims file
 *   tokenpace reference-server --port P --tps R --ttft-ms T [--tokens-per-chunk K] [--output-tokens N] [--capacity-tps C]
 *   tokenpace probe <url> --model M [...]   one measurement, printed (--record FILE: also as a replay case)
 *   tokenpace replay FILE [--expect]        replay a stream case through the probe (compare with its expect)
 *   tokenpace sweep <url> --model M [...]   concurrency sweep (TPS/user vs aggregate), printed
 *   tokenpace migrate                       apply migrations to DATABASE_URL (or the embedded server)
 *   tokenpace admin grant|revoke <email>    give or take the admin role of an account
 *   tokenpace pricing <slug> --input --output --source --as-of   declare an endpoint's prices (admin)
 * Exit codes: 0 ok, 1 failure, 2 bad usage.
 */
import { UsageError } from './usage-error';

const USAGE = `usage: tokenpace <command> [options]
commands:
  start                                   start web + workers (embedded Postgres unless DATABASE_URL is set)
  import llmperf <dir>                    import LLMPerf individual/*.json files as a dataset
  import claims <file>                    import a published-claims JSON file
  reference-server --port P --tps R --ttft-ms T [--tokens-per-chunk K] [--output-tokens N] [--capacity-tps C]
  probe <url> --model M [--protocol P] [--api-key-env NAME] [--allow-private] [--json] [--timeline] [--record FILE]
  replay FILE [--expect] [--json] [--timeline]   replay a recorded stream case locally through the probe
  sweep <url> --model M [--protocol P] [--api-key-env NAME] [--concurrency 1,2,4,...] [--duration-s S] [--allow-private] [--json]
  migrate                                 apply database migrations
  rotate-key --new-key-file <path>        re-encrypt stored API keys under a new key
  admin grant <email>                     make an existing account an admin (admin revoke <email> undoes it)
  pricing <endpoint-slug> --input USD --output USD [--cached USD] --source URL --as-of YYYY-MM-DD   declare prices per M tokens (--clear removes)`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'start':
      return (await import('./start-command')).runStartCommand(rest);
    case 'import':
      return (await import('./import-command')).runImportCommand(rest);
    case 'reference-server':
      await (await import('./reference-server-command')).runReferenceServerCommand(rest);
      return 0;
    case 'probe': {
      const { runProbeCommand } = await import('./probe-command');
      const { createGuardedFetch } = await import('@/lib/security/ssrf-guard');
      return runProbeCommand(rest, { createFetch: (o) => createGuardedFetch({ allowPrivate: o.allowPrivate }) });
    }
    case 'replay':
      return (await import('./replay-command')).runReplayCommand(rest);
    case 'sweep': {
      const { runSweepCommand } = await import('./sweep-command');
      const { createGuardedFetch } = await import('@/lib/security/ssrf-guard');
      return runSweepCommand(rest, { createFetch: (o) => createGuardedFetch({ allowPrivate: o.allowPrivate }) });
    }
    case 'migrate':
      return (await import('./migrate-command')).runMigrateCommand(rest);
    case 'admin':
      return (await import('./admin-command')).runAdminCommand(rest);
    case 'pricing':
      return (await import('./pricing-command')).runPricingCommand(rest);
    case 'rotate-key':
      return (await import('./rotate-key-command')).runRotateKeyCommand(rest);
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      console.log(USAGE);
      return command === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
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
