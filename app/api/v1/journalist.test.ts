/**
 * A journalist's check, end to end: the README's "For journalists" shell steps (curl + python3 +
 * sha256sum, extracted from README.md and run as they stand) recompute a published leaderboard
 * median of an endpoint from /measurements (paged CSV) and from the latest weekly dump, against a
 * real local HTTP server over the production route handlers. The recomputed medians (exact type-7
 * over the rankable measurements) must equal the published ones within the accuracy each answer
 * declares, and the counts exactly. Also: the dump holds every public measurement of its week with
 * the measurements CSV's columns, its SHA-256 is right, and a second write of the week is a no-op.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { endpoints, measurements } from '@/db/schema';
import type { TestDatabase } from '@/db/test-support/test-database';
import { lastCompleteWeek, writeDump } from '@/workers/tasks/write-dump';
import { readmeSteps } from './test-support/readme-steps';
import { useServedApiData, type ServedApiData } from './test-support/use-served-api-data';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

const run = promisify(execFile);
const NOW = Date.now();
let t: TestDatabase;
let server: ServedApiData['server'];
let workdir: string;

useServedApiData({ now: NOW, days: 16, dump: true }, (s) => {
  ({ t, server } = s);
  workdir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokenpace-journalist-'));
});

afterAll(() => {
  if (workdir) fs.rmSync(workdir, { recursive: true, force: true });
});

describe('weekly dump', () => {
  it('holds every public measurement of its week, with the measurements CSV columns and a true SHA-256', async () => {
    const week = lastCompleteWeek(new Date(NOW));
    const list = (await (await fetch(`${server.baseUrl}/api/v1/dumps`)).json()) as {
      items: Array<{ id: number; from: string; until: string; rows: number; bytes: number; sha256: string; url: string }>;
    };
    const dump = list.items[0]!;
    expect(dump.from).toBe(week.fromAt.toISOString());
    expect(dump.until).toBe(week.untilAt.toISOString());
    const expected = await t.db.$count(measurements, and(gte(measurements.measuredAt, week.fromAt), lt(measurements.measuredAt, week.untilAt)));
    expect(dump.rows).toBe(expected);
    expect(expected).toBeGreaterThan(1000);

    const res = await fetch(`${server.baseUrl}${dump.url}`);
    expect(res.status).toBe(200);
    const gz = Buffer.from(await res.arrayBuffer());
    expect(gz.length).toBe(dump.bytes);
    expect(createHash('sha256').update(gz).digest('hex')).toBe(dump.sha256);
    expect(res.headers.get('x-checksum-sha256')).toBe(dump.sha256);
    expect(res.headers.get('repr-digest')).toBe(`sha-256=:${Buffer.from(dump.sha256, 'hex').toString('base64')}:`);
    const csv = gunzipSync(gz).toString('utf8');
    const lines = csv.split('\r\n').filter(Boolean);
    expect(lines.length).toBe(dump.rows + 1);

    // Same header as the measurements CSV; the manifest describes each column.
    const [anyEndpoint] = await t.db.select({ id: endpoints.id }).from(endpoints).where(eq(endpoints.slug, 'groq-llama-4-maverick')).limit(1);
    const page = await (await fetch(`${server.baseUrl}/api/v1/endpoints/${anyEndpoint?.id ?? 1}/measurements.csv?limit=1`)).text();
    expect(lines[0]).toBe(page.split('\r\n')[0]);
    for (const col of [
      'id',
      'endpointId',
      'workload',
      'measuredAt',
      'outputTokensPerSecond',
      'outputTokensPerSecondO200k',
      'ttftMs',
      'rankable',
      'notRankableReasons',
      'errorKind',
    ])
      expect(lines[0]!.split(',')).toContain(col);
    const manifest = (await (await fetch(`${server.baseUrl}/api/v1/dumps/${dump.id}/manifest.json`)).json()) as {
      columns: Array<{ name: string; description: string }>;
      sha256: string;
      rows: number;
      csvSha256: string;
    };
    expect(manifest.columns.map((c) => c.name).join(',')).toBe(lines[0]);
    expect(manifest.columns.filter((c) => !c.description).map((c) => c.name)).toEqual([]);
    expect(manifest.sha256).toBe(dump.sha256);
    expect(manifest.csvSha256).toBe(createHash('sha256').update(csv).digest('hex'));

    // Written once per week: a second run (a restart, another worker) writes nothing.
    const again = await writeDump(t.db, week);
    expect(again.created).toBe(false);
    expect(again.dump.id).toBe(dump.id);
    // Conditional GET and HEAD carry the checksum without the body.
    expect((await fetch(`${server.baseUrl}${dump.url}`, { headers: { 'if-none-match': `"${dump.sha256}"` } })).status).toBe(304);
    const head = await fetch(`${server.baseUrl}${dump.url}`, { method: 'HEAD' });
    expect(head.headers.get('x-checksum-sha256')).toBe(dump.sha256);
  });

  it('a dump cut into many stored chunks streams back as one file with its SHA-256', async () => {
    const { fromAt } = lastCompleteWeek(new Date(NOW));
    const { dump, created } = await writeDump(t.db, { fromAt: new Date(fromAt.getTime() - 7 * 86400_000), untilAt: fromAt }, { chunkBytes: 16 * 1024 });
    expect(created).toBe(true);
    const chunks = await t.db.execute<{ n: number }>(sql`select count(*)::int as n from dump_chunks where dump_id = ${dump.id}`);
    expect(chunks[0]!.n).toBeGreaterThanOrEqual(2);
    const bytes = Buffer.from(await (await fetch(`${server.baseUrl}/api/v1/dumps/${dump.id}/measurements.csv.gz`)).arrayBuffer());
    expect(bytes.length).toBe(dump.bytes);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(dump.sha256);
    expect(gunzipSync(bytes).toString('utf8').split('\r\n').filter(Boolean)).toHaveLength(dump.rows + 1);
  });
});

describe('README journalist steps', () => {
  it('recompute the leaderboard median of an endpoint from /measurements and from the latest dump', async () => {
    const { stdout, stderr } = await run('bash', ['-euo', 'pipefail', '-c', readmeSteps('journalist')], {
      cwd: workdir,
      env: { ...process.env, BASE: server.baseUrl },
      timeout: 120_000,
    });
    const num = (re: RegExp) => {
      const m = re.exec(stdout);
      if (!m) throw new Error(`no ${re} in output:\n${stdout}\n${stderr}`);
      return { value: Number(m[1]), n: Number(m[2]) };
    };
    const published = num(/^published \S+ median ([\d.e+-]+) tokens\/s from (\d+) measurements/m);
    const recomputed = num(/^recomputed median ([\d.e+-]+) tokens\/s from (\d+) measurements/m);
    const publishedWeek = num(/^published week median ([\d.e+-]+) tokens\/s from (\d+) measurements/m);
    const fromDump = num(/^dump median ([\d.e+-]+) tokens\/s from (\d+) measurements/m);
    expect(stdout).toMatch(/dump\.csv\.gz: OK/);
    const board = JSON.parse(fs.readFileSync(path.join(workdir, 'board.json'), 'utf8')) as { statistics: { percentileRelativeAccuracy: number } };
    const week = JSON.parse(fs.readFileSync(path.join(workdir, 'week.json'), 'utf8')) as { statistics: { percentileRelativeAccuracy: number } };
    // The counts agree exactly; the medians within the accuracy each answer declares (exact → 0).
    expect(recomputed.n).toBe(published.n);
    expect(recomputed.n).toBeGreaterThan(100);
    expect(Math.abs(published.value - recomputed.value)).toBeLessThanOrEqual(board.statistics.percentileRelativeAccuracy * recomputed.value + 1e-9);
    expect(fromDump.n).toBe(publishedWeek.n);
    expect(fromDump.n).toBeGreaterThan(100);
    expect(Math.abs(publishedWeek.value - fromDump.value)).toBeLessThanOrEqual(week.statistics.percentileRelativeAccuracy * fromDump.value + 1e-9);
    // The CSV also holds the failures and unrankable ones, which the steps leave out.
    expect(fs.readFileSync(path.join(workdir, 'measurements.csv'), 'utf8').split('\r\n').filter(Boolean).length).toBeGreaterThan(recomputed.n);
  }, 150_000);
});
