/**
 * Scale-out across regions on one database: a worker in region `eu` and one in `us` each work only
 * their region's probe queue, both measure the same slots (one measurement per region), and the
 * operations surfaces see both: /api/v1/regions (per-region counts and live workers) and
 * /api/health (live workers with pid, host, region, version, lastHeartbeatAt).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { seedCatalog } from '@/db/seed';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { getEnv } from '@/lib/env';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

const ROOT = path.resolve(__dirname, '..');
let t: TestDatabase;
let server: http.Server;
const workers: ChildProcess[] = [];

function startServer(): Promise<number> {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.write(chunk({ role: 'assistant', content: '' }));
      for (let i = 0; i < 5; i++) res.write(chunk({ content: ` word${i}` }));
      res.write(chunk({}, 'stop'));
      res.write(`data: ${JSON.stringify({ id: 'x', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function startWorker(region: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'workers/main.ts', '--heartbeat-seconds', '1'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: t.url, TOKENPACE_WORKER_REGION: region, TOKENPACE_PROBE_CRON: '* * * * *', TOKENPACE_SECRET_KEY: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (d) => process.stderr.write(`[worker ${region}] ${d}`));
  workers.push(child);
  return child;
}

beforeAll(async () => {
  t = await createTestDatabase();
  const port = await startServer();
  await seedCatalog(t.db, { workloads: SEED_WORKLOADS, lookupEnv: () => null, referencePort: port });
});

afterAll(async () => {
  await Promise.all(
    workers.map((w) => new Promise<void>((resolve) => {
      if (w.exitCode !== null || w.signalCode !== null) return resolve();
      const timer = setTimeout(() => w.kill('SIGKILL'), 15_000);
      w.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      w.kill('SIGTERM');
    })),
  );
  server?.close();
  await t?.drop();
});

it('workers in eu and us measure their own region; regions and health list both', async () => {
  const eu = startWorker('eu');
  const us = startWorker('us');
  await expect
    .poll(async () => {
      const rows = (await t.db.execute(sql`select worker_region as region, count(*)::int as n from measurements group by 1 order by 1`)) as unknown as Array<{ region: string; n: number }>;
      return rows.map((r) => r.region);
    }, { timeout: 120_000, interval: 500 })
    .toEqual(['eu', 'us']);
  // Each region's probe jobs were taken by that region's worker only.
  const claims = (await t.db.execute(sql`select split_part(job_key, ':', 4) as region, worker_id from probe_slots group by 1, 2`)) as unknown as Array<{ region: string; worker_id: string }>;
  for (const c of claims) expect(c.worker_id.endsWith(`:${c.region === 'eu' ? eu.pid : us.pid}`)).toBe(true);
  // A slot probed from both regions has one measurement per region, never two in one.
  const [dups] = (await t.db.execute(sql`select count(*)::int as n from (select job_key from measurements group by job_key having count(*) > 1) d`)) as unknown as Array<{ n: number }>;
  expect(dups!.n).toBe(0);

  process.env.DATABASE_URL = t.url;
  getEnv(true);
  const regionsRoute = await import('@/app/api/v1/regions/route');
  const health = await import('@/app/api/health/route');
  const regions = (await (await regionsRoute.GET(new Request('http://localhost:3000/api/v1/regions'))).json()) as { items: Array<{ region: string; liveWorkers: number }> };
  expect(regions.items.filter((r) => r.liveWorkers > 0).map((r) => r.region)).toEqual(['eu', 'us']);
  const body = (await (await health.GET()).json()) as { workers: Array<{ pid: number; region: string; host: string; version: string; lastHeartbeatAt: string }> };
  expect(body.workers.map((w) => `${w.region}:${w.pid}`).sort()).toEqual([`eu:${eu.pid}`, `us:${us.pid}`]);
  for (const w of body.workers) expect(Date.parse(w.lastHeartbeatAt)).toBeGreaterThan(Date.now() - 60_000);
}, 180_000);
