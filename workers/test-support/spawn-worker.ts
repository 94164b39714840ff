/**
 * Test support: starts `workers/main.ts` as a child process (node --import tsx, in the repository
 * root) against `databaseUrl`, for region `region` (default local) with the probe cron every
 * minute and no secret key, plus command-line `args` (e.g. `--role jobs`, `--heartbeat-seconds 1`).
 * Its stderr is copied to this process's stderr, each piece prefixed with `[label]` (default
 * `worker <pid>`); its stdout is piped for the caller to read unless `stdout` is 'ignore'. Stop it
 * with stopChildren.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

export function spawnWorker(
  databaseUrl: string,
  opts: { region?: string; args?: readonly string[]; stdout?: 'pipe' | 'ignore'; label?: (child: ChildProcess) => string } = {},
): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'workers/main.ts', ...(opts.args ?? [])], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      TOKENPACE_WORKER_REGION: opts.region ?? 'local',
      TOKENPACE_PROBE_CRON: '* * * * *',
      TOKENPACE_SECRET_KEY: '',
    },
    stdio: ['ignore', opts.stdout ?? 'pipe', 'pipe'],
  });
  const label = opts.label?.(child) ?? `worker ${child.pid}`;
  child.stderr?.on('data', (d) => process.stderr.write(`[${label}] ${d}`));
  return child;
}
