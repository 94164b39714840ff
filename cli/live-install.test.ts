/**
 * CLI commands against a live install (issue #23 item 1, docs/decisions/200). A real separate
 * process owns the embedded PostgreSQL of a data directory as `tokenpace start` does; each command
 * that opens the database (admin, migrate, import, pricing, rotate-key) runs as the real CLI
 * (`node bin/tokenpace.mjs`, no DATABASE_URL) and must leave the owner's server up: the owner's
 * held session survives (same backend pid, same postmaster) and it answers 200 after every command.
 * A data directory whose owner was killed with -9 stays recoverable; two commands on a stopped
 * install share the server the first one started until both are done.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, expect, it } from 'vitest';
import { OWNER_FILE, PASSWORD_FILE, readLivePostmaster } from '@/db/embedded';
import { pidAlive } from '@/db/test-support/pid-alive';

const ROOT = path.resolve(__dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokenpace-live-cli-'));
fs.chmodSync(dataDir, 0o755);
const pgPort = 27000 + Math.floor(Math.random() * 2000);
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  const pm = readLivePostmaster(path.join(dataDir, 'pg'));
  if (pm) {
    process.kill(pm.pid, 'SIGINT');
    for (let i = 0; i < 100 && readLivePostmaster(path.join(dataDir, 'pg')); i++) await new Promise((r) => setTimeout(r, 100));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const alive = pidAlive;

/** The real CLI, as an operator runs it on the machine of the install (embedded, no DATABASE_URL). */
function cli(args: string[], env: Record<string, string> = {}): { code: number; out: string } {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'tokenpace.mjs'), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', TOKENPACE_DATA_DIR: dataDir, TOKENPACE_PG_PORT: String(pgPort), ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

function spawnLines(
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; lines: string[]; waitFor: (re: RegExp, ms?: number) => Promise<RegExpExecArray> } {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      TOKENPACE_DATA_DIR: dataDir,
      TOKENPACE_PG_PORT: String(pgPort),
      TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.json'),
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  const lines: string[] = [];
  let text = '';
  const onData = (d: Buffer) => {
    text += String(d);
    lines.push(...String(d).split('\n').filter(Boolean));
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const waitFor = async (re: RegExp, ms = 90_000) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const m = re.exec(text);
      if (m) return m;
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited ${child.exitCode}: ${text}`);
      if (Date.now() > deadline) throw new Error(`no ${re} within ${ms} ms: ${text}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { child, lines, waitFor };
}

/** The owner's answer, on a new connection each time (a kept-alive socket the server closed while idle would fail for no fault of the server). */
function ownerAnswer(httpPort: number): Promise<{ status: number; body: { postmasterPid: number; heldBackendPid: number; endpoints: number } }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: httpPort, path: '/', agent: false, timeout: 30_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('timeout', () => req.destroy(new Error('owner did not answer within 30 s')));
    req.on('error', reject);
  });
}

function ownDb(port: number) {
  const password = fs.readFileSync(path.join(dataDir, PASSWORD_FILE), 'utf8').trim();
  return postgres(`postgres://postgres:${password}@127.0.0.1:${port}/tokenpace`, { max: 1, onnotice: () => {} });
}

it('every CLI command that opens the database works on the live install and leaves its server up', async () => {
  const holder = spawnLines(['cli/test-support/hold-live-install.ts', dataDir, String(pgPort)]);
  const [, portText, pmText] = await holder.waitFor(/READY (\d+) (\d+)/, 120_000);
  const httpPort = Number(portText);
  const postmasterPid = Number(pmText);
  const first = await ownerAnswer(httpPort);
  expect(first.status).toBe(200);
  expect(first.body.postmasterPid).toBe(postmasterPid);

  const sql = ownDb(pgPort);
  await sql`insert into users (id, name, email) values ('live-1', 'Ada', 'ada@example.org')`;
  const [{ slug }] = await sql<[{ slug: string }]>`select slug from endpoints order by id limit 1`;

  const commands: Array<{ args: string[]; expect: RegExp; env?: Record<string, string>; code?: number }> = [
    { args: ['admin', 'grant', 'ada@example.org'], expect: /ada@example\.org is now an admin/ },
    { args: ['migrate'], expect: /migrations applied/ },
    { args: ['import', 'claims', 'lib/datasets/data/published-claims-2025.json'], expect: /imported \d+ claims/ },
    { args: ['import', 'llmperf', 'lib/datasets/test-fixtures/llmperf/individual'], expect: /imported LLMPerf dataset: \d+ series/ },
    {
      args: ['pricing', slug, '--input', '0.2', '--output', '0.6', '--source', 'https://example.com/pricing', '--as-of', '2026-11-01'],
      expect: /pricing declared/,
    },
    // rotate-key would leave the running processes with the old key: refused, nothing changed.
    {
      args: ['rotate-key'],
      expect: /rotate-key: the install is running \(pid \d+: hold-live-install\) and holds the current key; stop it.*Nothing was changed/,
      code: 1,
    },
    // The live server's port comes from its postmaster.pid, not from this shell's TOKENPACE_PG_PORT.
    { args: ['admin', 'revoke', 'ada@example.org'], expect: /is now a provider/, env: { TOKENPACE_PG_PORT: String(pgPort + 1) } },
  ];
  for (const c of commands) {
    const r = cli(c.args, c.env);
    expect(r.out, c.args.join(' ')).toMatch(c.expect);
    expect(r.code, c.args.join(' ')).toBe(c.code ?? 0);
    const after = await ownerAnswer(httpPort);
    expect(after.status, `owner after ${c.args.join(' ')}`).toBe(200);
    expect(after.body, `owner after ${c.args.join(' ')}`).toEqual({ ...first.body });
    expect(alive(postmasterPid)).toBe(true);
  }
  const [{ role }] = await sql<[{ role: string }]>`select role from users where id = 'live-1'`;
  expect(role).toBe('provider');
  const [{ n }] = await sql<[{ n: number }]>`select count(*)::int as n from audit_events where target_user_id = 'live-1'`;
  expect(n).toBe(2);
  await sql.end();
  // The owner is still the holder: the commands never took the data directory over.
  expect(JSON.parse(fs.readFileSync(path.join(dataDir, OWNER_FILE), 'utf8')).pid).toBe(holder.child.pid);

  // kill -9 of the owner leaves an orphaned server (no guard here): the next command recovers it.
  holder.child.kill('SIGKILL');
  await new Promise((r) => holder.child.once('exit', r));
  expect(alive(postmasterPid)).toBe(true);
  const keyBefore = fs.readFileSync(path.join(dataDir, 'secret.key'), 'utf8');
  const recovered = cli(['admin', 'grant', 'ada@example.org']);
  expect(recovered.out).toMatch(/ada@example\.org is now an admin/);
  expect(recovered.code).toBe(0);
  // With nothing running, rotate-key does its work on a server of its own.
  const rotated = cli(['rotate-key']);
  expect(rotated.out).toMatch(/re-encrypted \d+ API key/);
  expect(rotated.code).toBe(0);
  expect(fs.readFileSync(path.join(dataDir, 'secret.key'), 'utf8')).not.toBe(keyBefore);
  expect(alive(postmasterPid)).toBe(false);
  // It started its own server for the command and stopped it again: nothing runs, nothing owns it.
  expect(readLivePostmaster(path.join(dataDir, 'pg'))).toBeNull();
  expect(fs.existsSync(path.join(dataDir, OWNER_FILE))).toBe(false);
}, 600_000);

it('two commands on a stopped install: the one that started the server stops it only after the other is done', async () => {
  const a = spawnLines(['cli/test-support/acquire-and-hold.ts']);
  const [, ownedA, pidA] = await a.waitFor(/ACQUIRED (\w+) (\d+)/);
  expect(ownedA).toBe('true');
  const b = spawnLines(['cli/test-support/acquire-and-hold.ts']);
  const [, ownedB, pidB] = await b.waitFor(/ACQUIRED (\w+) (\d+)/);
  expect(ownedB).toBe('false');
  expect(pidB).toBe(pidA);
  a.child.stdin!.write('release\n');
  await new Promise((r) => setTimeout(r, 1500));
  expect(a.lines).not.toContain('RELEASED');
  b.child.stdin!.write('query\n');
  await b.waitFor(/QUERIED|FAILED/);
  expect(b.lines).toContain('QUERIED');
  b.child.stdin!.write('release\n');
  await b.waitFor(/RELEASED/);
  await a.waitFor(/RELEASED/, 30_000);
  expect(alive(Number(pidA))).toBe(false);
}, 300_000);
