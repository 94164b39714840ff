import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import postgres from 'postgres';
import { secondInstallEnv } from './support/second-install-env';
import { stopLauncher } from './support/stop-launcher';

/**
 * Issue #23 item 1 on a real `tokenpace start` (docs/decisions/200): a second install (own data
 * directory and ports, the web build of this run, no DATABASE_URL) runs; every CLI command that
 * opens the database (admin grant/revoke, migrate, import, pricing, rotate-key) runs against it as
 * an operator would, and after each one every API below answers 200 and the embedded Postgres is
 * the same process.
 */
const MAIN_PORT = Number(process.env.E2E_PORT ?? 3210);
// Three ports after this run's own three (E2E_PORT..E2E_PORT+2), below the ephemeral range.
const PORT = MAIN_PORT + 3;
const PG_PORT = MAIN_PORT + 4;
const REFERENCE_PORT = MAIN_PORT + 5;
const base = `http://127.0.0.1:${PORT}`;
const DATA_DIR = path.join(os.tmpdir(), `tokenpace-e2e-cli-${process.pid}-${Date.now()}`);
const ENV = secondInstallEnv({ port: PORT, pgPort: PG_PORT, referencePort: REFERENCE_PORT, dataDir: DATA_DIR });
const APIS = [
  '/api/health',
  '/api/v1/endpoints',
  '/api/v1/models',
  `/api/v1/leaderboard?model=llama-4-maverick&workload=prose-1k`,
  '/api/v1/claims',
  '/api/v1/regions',
  '/api/v1/openapi.json',
];

let launcher: ChildProcess | null = null;

test.afterAll(async () => {
  await stopLauncher(launcher);
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
});

function postmasterPid(): number {
  return Number(fs.readFileSync(path.join(DATA_DIR, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** Status of GET `url` on a new connection (a kept-alive socket that the server closes while idle would fail a request for no fault of the server). */
function statusOf(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: 30_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

async function statuses(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const p of APIS) out[p] = await statusOf(`${base}${p}`);
  return out;
}

test('every CLI command that opens the database leaves a running install answering 200', async () => {
  test.setTimeout(600_000);
  launcher = spawn(process.execPath, ['bin/tokenpace.mjs', 'start', '--no-build'], { env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  launcher.stdout?.resume();
  launcher.stderr?.on('data', (d) => process.stderr.write(`[cli-live start] ${d}`));
  await expect
    .poll(
      async () => {
        if (launcher?.exitCode !== null) throw new Error(`tokenpace start exited (code ${launcher?.exitCode})`);
        return statusOf(`${base}/api/health`);
      },
      { timeout: 240_000, intervals: [1000] },
    )
    .toBe(200);
  const allOk = Object.fromEntries(APIS.map((p) => [p, 200]));
  await expect.poll(statuses, { timeout: 60_000 }).toEqual(allOk);
  const pg = postmasterPid();

  // An account to grant, and an endpoint to price (the operator would sign up on the site).
  const password = fs.readFileSync(path.join(DATA_DIR, 'pg-password'), 'utf8').trim();
  const sql = postgres(`postgres://postgres:${password}@127.0.0.1:${PG_PORT}/tokenpace`, { max: 1, onnotice: () => {} });
  await sql`insert into users (id, name, email) values ('cli-live', 'Operator', 'operator@tokenpace.example') on conflict do nothing`;
  const [{ slug }] = await sql<[{ slug: string }]>`select slug from endpoints order by id limit 1`;
  await sql.end();

  const commands: Array<[string[], RegExp]> = [
    [['admin', 'grant', 'operator@tokenpace.example'], /is now an admin/],
    [['migrate'], /migrations applied/],
    [['import', 'claims', 'lib/datasets/data/published-claims-2025.json'], /imported \d+ claims/],
    [['import', 'llmperf', 'lib/datasets/test-fixtures/llmperf/individual'], /imported LLMPerf dataset/],
    [['pricing', slug, '--input', '0.2', '--output', '0.6', '--source', 'https://example.com/pricing', '--as-of', '2026-11-01'], /pricing declared/],
    [['rotate-key'], /the install is running .*Nothing was changed/],
    [['admin', 'revoke', 'operator@tokenpace.example'], /is now a provider/],
  ];
  for (const [args, expected] of commands) {
    const r = spawnSync(process.execPath, ['bin/tokenpace.mjs', ...args], { env: ENV, encoding: 'utf8', timeout: 120_000 });
    expect(`${r.stdout}${r.stderr}`, args.join(' ')).toMatch(expected);
    expect(r.status, args.join(' ')).toBe(args[0] === 'rotate-key' ? 1 : 0);
    expect(await statuses(), `after ${args.join(' ')}`).toEqual(allOk);
    expect(postmasterPid(), `after ${args.join(' ')}`).toBe(pg);
  }

  launcher.kill('SIGTERM');
  await expect.poll(() => launcher!.exitCode, { timeout: 60_000, intervals: [500] }).toBe(0);
});
