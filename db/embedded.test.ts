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
import {
  assertPortFree,
  ephemeralPortRange,
  isPortFree,
  OWNER_FILE,
  PASSWORD_FILE,
  processStartTicks,
  startEmbeddedPostgres,
  type EmbeddedServer,
} from './embedded';
import { pidAlive } from './test-support/pid-alive';

const ROOT = path.resolve(__dirname, '..');
const dirs: string[] = [];
const servers: EmbeddedServer[] = [];

function tempDataDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'tokenpace-embedded-test-'));
  fs.chmodSync(d, 0o755);
  dirs.push(d);
  return d;
}
const port = () => 26500 + Math.floor(Math.random() * 2000);

afterAll(async () => {
  for (const s of servers) await s.stop().catch(() => {});
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const alive = pidAlive;

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
    expect(byName).toEqual({
      fsync: 'on',
      synchronous_commit: 'on',
      full_page_writes: 'on',
      listen_addresses: '127.0.0.1',
      password_encryption: 'scram-sha-256',
    });
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
  expect((await sql`select 1 as one`)[0]!.one).toBe(1);
  await sql.end();
  await server.stop();
});

it('a port taken by another program is refused before starting, naming TOKENPACE_PG_PORT and a free port', async () => {
  const dataDir = tempDataDir();
  const p = port();
  const first = await startEmbeddedPostgres({ dataDir, port: p, durability: 'test' });
  servers.push(first);
  const otherDir = tempDataDir();
  const err = await startEmbeddedPostgres({ dataDir: otherDir, port: p, durability: 'test' }).catch((e: Error) => e);
  expect(err).toBeInstanceOf(Error);
  expect((err as Error).message).toMatch(
    new RegExp(`port ${p} on 127\\.0\\.0\\.1 is in use by another program.*Set TOKENPACE_PG_PORT to a free port \\(e\\.g\\. TOKENPACE_PG_PORT=\\d+\\)`),
  );
  const suggested = Number(/TOKENPACE_PG_PORT=(\d+)/.exec((err as Error).message)![1]);
  expect(await isPortFree(suggested)).toBe(true);
  // The refused start claimed nothing: the other directory has no owner and no server.
  expect(fs.existsSync(path.join(otherDir, OWNER_FILE))).toBe(false);
  await first.stop();
  expect(fs.existsSync(path.join(dataDir, OWNER_FILE))).toBe(false);
});

it('a port in the ephemeral range is named as such when taken', async () => {
  const range = ephemeralPortRange();
  if (!range) return; // not Linux: no range to name
  const net = await import('node:net');
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r())); // the kernel picks from the ephemeral range
  const taken = (srv.address() as import('node:net').AddressInfo).port;
  try {
    await expect(assertPortFree(taken)).rejects.toThrow(
      new RegExp(`${taken} lies in this machine's ephemeral range ${range.low}-${range.high}.*choose one below ${range.low}`),
    );
  } finally {
    srv.close();
  }
});

it('the default port lies outside the ephemeral range of Linux (32768-60999)', async () => {
  const { getEnv } = await import('@/lib/env');
  const saved = process.env.TOKENPACE_PG_PORT;
  delete process.env.TOKENPACE_PG_PORT;
  try {
    const p = getEnv(true).TOKENPACE_PG_PORT;
    expect(p < 32768 || p > 60999).toBe(true);
    expect(p).not.toBe(5432);
  } finally {
    if (saved !== undefined) process.env.TOKENPACE_PG_PORT = saved;
    getEnv(true);
  }
});

it('a live owner: `attach` connects to its server (never stops it), `wait` waits for it and names it', async () => {
  const dataDir = tempDataDir();
  const owner = await startEmbeddedPostgres({ dataDir, port: port(), durability: 'test', command: 'the owner' });
  servers.push(owner);
  expect(owner.owned).toBe(true);
  // Another process owns it: a live child with this owner's record (pid and start time).
  const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  try {
    const record = JSON.parse(fs.readFileSync(path.join(dataDir, OWNER_FILE), 'utf8'));
    fs.writeFileSync(
      path.join(dataDir, OWNER_FILE),
      JSON.stringify({ ...record, pid: other.pid, startTicks: processStartTicks(other.pid!), command: 'tokenpace start' }),
    );
    const attached = await startEmbeddedPostgres({ dataDir, port: port(), durability: 'test' });
    expect(attached).toMatchObject({ owned: false, port: owner.port, pid: owner.pid, owner: { pid: other.pid, command: 'tokenpace start' } });
    await attached.stop();
    expect(alive(owner.pid!)).toBe(true);
    const sql = postgres(owner.url, { max: 1, onnotice: () => {} });
    expect((await sql`select 1 as one`)[0]!.one).toBe(1);
    await sql.end();
    await expect(startEmbeddedPostgres({ dataDir, port: port(), durability: 'test', sharing: 'wait', waitMs: 600 })).rejects.toThrow(
      new RegExp(`in use by pid ${other.pid} \\(tokenpace start\\); it did not finish within 1 s`),
    );
    expect(alive(owner.pid!)).toBe(true);
  } finally {
    other.kill('SIGKILL');
  }
  await new Promise((r) => other.once('exit', r));
  // Its owner gone (and a stranger could reuse the pid): the server is stale; a start takes it over.
  const again = await startEmbeddedPostgres({ dataDir, port: owner.port, durability: 'test', sharing: 'wait' });
  servers.push(again);
  expect(again.owned).toBe(true);
  expect(alive(owner.pid!)).toBe(false);
  await again.stop();
});

it('a live owner whose server does not come up: `attach` gives up with a clear message and changes nothing', async () => {
  const dataDir = tempDataDir();
  fs.mkdirSync(path.join(dataDir, 'run'), { recursive: true });
  const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  try {
    fs.writeFileSync(
      path.join(dataDir, OWNER_FILE),
      JSON.stringify({ pid: other.pid, startTicks: processStartTicks(other.pid!), command: 'tokenpace start', port: 1, postmasterPid: null }),
    );
    await expect(startEmbeddedPostgres({ dataDir, port: port(), durability: 'test', waitMs: 500 })).rejects.toThrow(
      new RegExp(`owned by pid ${other.pid} \\(tokenpace start\\) but did not accept connections within 1 s; nothing was changed`),
    );
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, OWNER_FILE), 'utf8')).pid).toBe(other.pid);
    expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  } finally {
    other.kill('SIGKILL');
  }
});

it('an owner record whose pid now belongs to another process (start time differs) is stale', async () => {
  const dataDir = tempDataDir();
  fs.mkdirSync(path.join(dataDir, 'run'), { recursive: true });
  // Our parent is alive, but it is not the process that wrote this record (other start time).
  fs.writeFileSync(
    path.join(dataDir, OWNER_FILE),
    JSON.stringify({ pid: process.ppid, startTicks: '1', command: 'tokenpace start', port: 1, postmasterPid: null }),
  );
  const server = await startEmbeddedPostgres({ dataDir, port: port(), durability: 'test', waitMs: 500 });
  servers.push(server);
  expect(server.owned).toBe(true);
  expect(JSON.parse(fs.readFileSync(path.join(dataDir, OWNER_FILE), 'utf8')).pid).toBe(process.pid);
  await server.stop();
});
