/**
 * Embedded PostgreSQL as `tokenpace start` runs it: durable settings, loopback only, a random
 * per-install password in a 0600 file, and a start that finds a server orphaned by a killed
 * earlier start (kill -9 of its owner) and stops it cleanly before starting its own.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, expect, it } from 'vitest';
import { PASSWORD_FILE, startEmbeddedPostgres, type EmbeddedServer } from './embedded';

const ROOT = path.resolve(__dirname, '..');
const dirs: string[] = [];
const servers: EmbeddedServer[] = [];

function tempDataDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'tokenpace-embedded-test-'));
  fs.chmodSync(d, 0o755);
  dirs.push(d);
  return d;
}
const port = () => 52000 + Math.floor(Math.random() * 2000);

afterAll(async () => {
  for (const s of servers) await s.stop().catch(() => {});
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

it('runs with durable defaults on loopback with a per-install password file (0600)', async () => {
  const dataDir = tempDataDir();
  const server = await startEmbeddedPostgres({ dataDir, port: port(), database: 'tokenpace' });
  servers.push(server);
  const file = path.join(dataDir, PASSWORD_FILE);
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  const password = fs.readFileSync(file, 'utf8').trim();
  expect(password).toMatch(/^[0-9a-f]{64}$/);
  expect(new URL(server.url).password).toBe(password);
  const sql = postgres(server.url, { max: 1, onnotice: () => {} });
  try {
    const settings = await sql<{ name: string; setting: string }[]>`
      select name, setting from pg_settings
      where name in ('fsync', 'synchronous_commit', 'full_page_writes', 'listen_addresses', 'password_encryption')`;
    const byName = Object.fromEntries(settings.map((r) => [r.name, r.setting]));
    expect(byName).toEqual({ fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on', listen_addresses: '127.0.0.1', password_encryption: 'scram-sha-256' });
  } finally {
    await sql.end();
  }
  const wrong = postgres(server.url.replace(password, 'tokenpace'), { max: 1, onnotice: () => {} });
  await expect(wrong`select 1`).rejects.toMatchObject({ code: '28P01' });
  await wrong.end();
  // Same install, second start: same password, data kept.
  await server.stop();
  const again = await startEmbeddedPostgres({ dataDir, port: port(), database: 'tokenpace' });
  servers.push(again);
  expect(new URL(again.url).password).toBe(password);
  await again.stop();
});

it('a start stops the server orphaned by a killed earlier start of the same data directory', async () => {
  const dataDir = tempDataDir();
  const p = port();
  const holder = spawn(process.execPath, ['--import', 'tsx', 'db/test-support/hold-embedded-postgres.ts', dataDir, String(p)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  holder.stderr.on('data', (d) => (out += String(d)));
  const orphanPid = await new Promise<number>((resolve, reject) => {
    holder.stdout.on('data', (d) => {
      out += String(d);
      const m = /READY (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    holder.on('exit', () => reject(new Error(`holder exited early: ${out}`)));
  });
  holder.kill('SIGKILL');
  await new Promise((r) => holder.once('exit', r));
  expect(alive(orphanPid)).toBe(true); // the orphan: Postgres outlived its owner
  const server = await startEmbeddedPostgres({ dataDir, port: p, database: 'tokenpace' });
  servers.push(server);
  expect(alive(orphanPid)).toBe(false);
  expect(server.pid).not.toBe(orphanPid);
  const sql = postgres(server.url, { max: 1, onnotice: () => {} });
  expect((await sql`select 1 as one`)[0].one).toBe(1);
  await sql.end();
  await server.stop();
});

it('a start that cannot listen says why, with the server log', async () => {
  const dataDir = tempDataDir();
  const p = port();
  const first = await startEmbeddedPostgres({ dataDir, port: p, durability: 'test' });
  servers.push(first);
  const otherDir = tempDataDir();
  await expect(startEmbeddedPostgres({ dataDir: otherDir, port: p, durability: 'test' })).rejects.toThrow(/did not start on 127\.0\.0\.1:\d+[\s\S]*Server log:[\s\S]*(could not bind|Address already in use|could not create any TCP\/IP sockets)/);
  await first.stop();
});
