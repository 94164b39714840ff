import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { secondInstallEnv } from './support/second-install-env';
import { stopLauncher } from './support/stop-launcher';

/**
 * Operating a second `tokenpace start` (embedded Postgres, own data directory and ports, the web
 * build of this run) the way an operator would break it:
 * - kill -9 of the worker: the web keeps serving, the start process restarts the worker;
 * - /metrics and /api/health show what the operator needs (families, live workers);
 * - kill -9 of the start process: web, worker, reference server and Postgres all end by themselves;
 * - the next start on the same data directory comes up, and SIGTERM stops everything.
 * Every wait polls for a state with a generous deadline (a loaded 2-core machine).
 */
let PORT = 0;
let PG_PORT = 0;
let REFERENCE_PORT = 0;
const base = () => `http://127.0.0.1:${PORT}`;
const DATA_DIR = path.join(os.tmpdir(), `tokenpace-e2e-ops-${process.pid}-${Date.now()}`);

interface RunFile {
  pid: number;
  children: Record<string, number | null>;
}

function startTokenpace(): ChildProcess {
  const child = spawn(process.execPath, ['bin/tokenpace.mjs', 'start', '--no-build'], {
    env: secondInstallEnv({ port: PORT, pgPort: PG_PORT, referencePort: REFERENCE_PORT, dataDir: DATA_DIR }, { TOKENPACE_ALLOW_PRIVATE: '1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.resume();
  child.stderr?.on('data', (d) => process.stderr.write(`[ops start] ${d}`));
  return child;
}

function readRunFile(): RunFile {
  return JSON.parse(fs.readFileSync(path.join(DATA_DIR, 'run', 'start.json'), 'utf8')) as RunFile;
}

function alive(pid: number | null | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function getJson(url: string): Promise<{ status: number; body: any }> {
  try {
    const res = await fetch(url);
    return { status: res.status, body: await res.json().catch(() => null) };
  } catch {
    return { status: 0, body: null };
  }
}

/** A port nothing listens on right now (the kernel's pick). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function waitReady(): Promise<void> {
  await expect
    .poll(
      async () => {
        if (launcher?.exitCode !== null) throw new Error(`tokenpace start exited (code ${launcher?.exitCode})`);
        const { status, body } = await getJson(`${base()}/api/health`);
        return status === 200 && Array.isArray(body?.workers) && body.workers.length > 0;
      },
      { timeout: 180_000, intervals: [1000] },
    )
    .toBe(true);
}

let launcher: ChildProcess | null = null;

test.afterAll(async () => {
  await stopLauncher(launcher);
  try {
    const run = readRunFile();
    for (const pid of [run.pid, ...Object.values(run.children)]) if (alive(pid)) process.kill(pid!, 'SIGKILL');
  } catch {
    // no run file: nothing left
  }
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
});

test('supervised start: worker restarted, metrics and health served, no orphans after kill -9, clean restart', async () => {
  test.setTimeout(600_000);
  [PORT, PG_PORT, REFERENCE_PORT] = [await freePort(), await freePort(), await freePort()];
  launcher = startTokenpace();
  await waitReady();

  // kill -9 of each worker (probe role, then jobs role): the web keeps answering, and a new worker
  // of that role appears (decision 251: two supervised worker processes).
  for (const [child, role] of [
    ['worker', 'probe'],
    ['jobs', 'jobs'],
  ] as const) {
    const before = readRunFile();
    const old = before.children[child]!;
    process.kill(old, 'SIGKILL');
    expect((await getJson(`${base()}/api/v1/endpoints`)).status).toBe(200);
    await expect
      .poll(
        async () => {
          const { body } = await getJson(`${base()}/api/health`);
          return (body?.workers ?? []).some((w: { pid: number; role: string }) => w.role === role && w.pid !== old && alive(w.pid));
        },
        { timeout: 90_000, intervals: [1000] },
      )
      .toBe(true);
  }
  expect((await getJson(`${base()}/api/v1/endpoints`)).status).toBe(200);

  // Health: database state, queues, live workers with pid, host, region, version, lastHeartbeatAt.
  const health = await getJson(`${base()}/api/health`);
  expect(health.body).toMatchObject({ ok: true, database: { state: 'up' } });
  expect(health.body.workers[0]).toEqual(
    expect.objectContaining({
      pid: expect.any(Number),
      host: expect.any(String),
      region: 'local',
      version: expect.any(String),
      lastHeartbeatAt: expect.any(String),
    }),
  );
  expect(health.body.queues.map((q: { queue: string }) => q.queue)).toContain('probe-local');

  // /metrics: Prometheus text with the families an operator alerts on.
  await expect
    .poll(
      async () => {
        const text = await (await fetch(`${base()}/metrics`)).text();
        return [
          'tokenpace_probes_total{',
          'tokenpace_probe_duration_seconds_bucket{',
          'tokenpace_queue_depth{',
          'tokenpace_queue_lag_seconds{',
          'tokenpace_endpoint_last_success_age_seconds{',
          'tokenpace_http_request_duration_seconds_bucket{',
          'tokenpace_nodejs_eventloop_lag_p99_seconds{',
          'tokenpace_workers_live{',
          'tokenpace_database_up 1',
        ].filter((family) => !text.includes(family));
      },
      { timeout: 120_000, intervals: [2000] },
    )
    .toEqual([]);
  const res = await fetch(`${base()}/api/v1/endpoints`, { headers: { 'x-request-id': 'ops-spec-1' } });
  expect(res.headers.get('x-request-id')).toBe('ops-spec-1');

  // kill -9 of the start process (the CLI that owns every child): nothing outlives it.
  const run = readRunFile();
  const pids = Object.entries(run.children).filter(([, pid]) => alive(pid));
  expect(pids.map(([name]) => name).sort()).toEqual(['jobs', 'postgres', 'reference', 'web', 'worker']);
  process.kill(run.pid, 'SIGKILL');
  await expect.poll(() => pids.filter(([, pid]) => alive(pid)).map(([name]) => name), { timeout: 60_000, intervals: [500] }).toEqual([]);
  await expect.poll(() => launcher!.exitCode !== null, { timeout: 30_000 }).toBe(true);

  // The next start on the same data directory comes up cleanly, and SIGTERM stops all of it.
  launcher = startTokenpace();
  await waitReady();
  const second = readRunFile();
  launcher.kill('SIGTERM');
  await expect.poll(() => launcher!.exitCode, { timeout: 60_000, intervals: [500] }).toBe(0);
  expect(Object.entries(second.children).filter(([, pid]) => alive(pid))).toEqual([]);
});
