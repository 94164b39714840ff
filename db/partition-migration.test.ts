/**
 * Migration 0024 (decision 217) on a populated table: a database migrated with every migration
 * but 0024 (so today's code, which knows the columns later migrations add, can fill and read it;
 * 0024 copies the table's columns with LIKE, so it does not depend on what came before it), filled
 * with measurements over several months (and one row before, one far after), then 0024 applied the
 * way the migrator applies it (its statements in one transaction, recorded in drizzle's journal
 * table) and the migrator run after it finding nothing left to do. Every row is there, value for
 * value, in its month's partition; the list, lookup and window queries give the same answers; ids
 * continue from the old sequence; old job keys still refuse a duplicate.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/postgres-js';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { openDb, type DbHandle } from './client';
import { MIGRATIONS_DIR, migrateDatabase } from './migrate';
import { getMeasurement, insertMeasurement, listMeasurements } from './queries/measurements';
import { DEFAULT_MEASUREMENT_PARTITION, measurementPartitionName } from './queries/measurement-partitions';
import { getOldestMeasurementTime } from './queries/rollups';
import { seedCatalog } from './seed';
import { endpoints, measurements, workloads } from './schema';
import { mulberry32 } from '@/lib/stats/random';
import { listWindowStatsFromRaw, type LeaderboardParams } from '@/server/window-stats';

const WL = [
  { slug: 'prose-1k', category: 'prose' as const, inputTokensTarget: 1000, maxOutputTokens: 256, concurrency: 1, scheduled: true },
  { slug: 'code-1k', category: 'code' as const, inputTokensTarget: 1000, maxOutputTokens: 256, concurrency: 1, scheduled: true },
];
const PARTITIONING = '0024_measurements_partitioned';
const FROM = Date.parse('2026-07-01T00:00:00Z');
const UNTIL = Date.parse('2026-11-30T00:00:00Z');

let adminUrl = '';
let name = '';
let url = '';
let h: DbHandle;
let tmp = '';

/** A copy of the migrations folder whose journal leaves out `tag`; also that entry's `when`. */
function migrationsWithout(tag: string): { dir: string; when: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-migrations-'));
  fs.cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string; idx: number; when: number }> };
  const left = journal.entries.find((e) => e.tag === tag);
  if (!left) throw new Error(`no migration ${tag}`);
  journal.entries = journal.entries.filter((e) => e.tag !== tag);
  fs.writeFileSync(journalPath, JSON.stringify(journal));
  return { dir, when: left.when };
}

/** Applies one migration file as drizzle's migrator does: its statements in one transaction, then its journal row. */
async function applyMigrationFile(databaseUrl: string, tag: string, when: number): Promise<void> {
  const text = fs.readFileSync(path.join(MIGRATIONS_DIR, `${tag}.sql`), 'utf8');
  const c = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await c.begin(async (tx) => {
      for (const statement of text.split('--> statement-breakpoint')) if (statement.trim()) await tx.unsafe(statement);
      await tx.unsafe('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [createHash('sha256').update(text).digest('hex'), when]);
    });
  } finally {
    await c.end();
  }
}

let partitioningWhen = 0;

beforeAll(async () => {
  adminUrl = inject('tokenpaceAdminUrl');
  const ppid = inject('tokenpaceTemplate').split('_')[2];
  name = `tp_t_${ppid}_${process.pid}_mig_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  url = u.toString();
  const without = migrationsWithout(PARTITIONING);
  tmp = without.dir;
  partitioningWhen = without.when;
  const c = postgres(url, { max: 1, onnotice: () => {} });
  await migrate(drizzle(c), { migrationsFolder: tmp });
  await c.end();
  h = openDb(url, 5);
}, 120_000);

afterAll(async () => {
  await h?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  if (name) {
    const a = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await a.unsafe(`drop database if exists "${name}" with (force)`);
    await a.end();
  }
});

it('converts a populated measurements table: every row kept, in its month, with the same answers', async () => {
  const db = h.db;
  const [unpartitioned] = (await db.execute(sql`select relkind from pg_class where relname = 'measurements'`)) as unknown as [{ relkind: string }];
  expect(unpartitioned.relkind).toBe('r');
  await seedCatalog(db, { workloads: WL, lookupEnv: () => 'x', referencePort: 3999 });
  const eps = await db.select({ id: endpoints.id, slug: endpoints.slug }).from(endpoints);
  const epIds = ['groq-llama-4-maverick', 'sambanova-llama-4-maverick', 'fireworks-llama-4-maverick'].map((s) => eps.find((e) => e.slug === s)!.id);
  const wlIds = (await db.select({ id: workloads.id }).from(workloads).orderBy(workloads.id)).map((w) => w.id);
  // Every 3 hours per endpoint × workload × region over five months, plus one row in 2025 and one
  // in 2028 (beyond the months made ahead: it goes to the default partition).
  const rand = mulberry32(7);
  const rows: Array<typeof measurements.$inferInsert> = [];
  let k = 0;
  const push = (at: number, endpointId: number, workloadId: number, region: string) => {
    const failed = rand() < 0.05;
    const speed = 200 + 300 * rand();
    rows.push({
      jobKey: `mig:${k++}`,
      endpointId,
      workloadId,
      measuredAt: new Date(at),
      workerRegion: region,
      workerVersion: 'test',
      outcome: failed ? 'error' : 'success',
      errorKind: failed ? 'timeout' : null,
      ttftMs: failed ? null : 100 + 400 * rand(),
      e2eMs: failed ? null : 1000 + 2000 * rand(),
      outputTokensPerSecond: failed ? null : speed,
      outputTokensPerSecondO200k: failed ? null : speed * 0.95,
      contentChunks: failed ? 0 : 256,
      timeline: Buffer.from([k % 256, 1, 2, 3]),
      evidence: { unrecognizedPaths: [`p${k % 3}`] },
      notRankableReasons: failed ? ['failed'] : [],
      rankable: !failed,
      valid: rand() > 0.02,
    });
  };
  for (let ts = FROM; ts < UNTIL; ts += 3 * 3600_000)
    for (const e of epIds) for (const w of wlIds) for (const region of ['us-east', 'eu-west']) push(ts + Math.floor(rand() * 3 * 3600_000), e, w, region);
  push(Date.parse('2025-03-10T10:00:00Z'), epIds[0]!, wlIds[0]!, 'us-east');
  push(Date.parse('2028-05-01T00:00:00Z'), epIds[0]!, wlIds[0]!, 'us-east');
  for (let i = 0; i < rows.length; i += 1000) await db.insert(measurements).values(rows.slice(i, i + 1000));
  expect(rows.length).toBeGreaterThan(10_000);

  // What the data says before: every row as JSON, and the answers of the queries that read it.
  const everyRow = async () =>
    ((await db.execute(sql`select to_jsonb(m)::text as j from measurements m order by id`)) as unknown as Array<{ j: string }>).map((r) => r.j);
  const p: LeaderboardParams = {
    modelSlug: 'llama-4-maverick',
    workloadSlug: 'prose-1k',
    asOf: new Date('2026-10-01T00:00:00Z'),
    windowHours: 72,
    basis: 'reported',
    region: null,
  };
  const answers = async () => {
    const windowed = await listMeasurements(db, {
      filter: { endpointId: epIds[1], since: new Date('2026-08-31T12:00:00Z'), until: new Date('2026-09-01T12:00:00Z') },
      limit: 25,
    });
    const second = await listMeasurements(db, {
      filter: { endpointId: epIds[1], since: new Date('2026-08-31T12:00:00Z'), until: new Date('2026-09-01T12:00:00Z') },
      limit: 25,
      cursor: windowed.nextCursor,
    });
    const all = await listMeasurements(db, { filter: { workloadId: wlIds[1], outcome: 'error' }, limit: 5000, order: 'asc' });
    return {
      windowed,
      second,
      all,
      one: await getMeasurement(db, 1234),
      oldest: await getOldestMeasurementTime(db),
      stats: await listWindowStatsFromRaw(db, p),
      statsAcrossMonths: await listWindowStatsFromRaw(db, { ...p, asOf: new Date('2026-11-01T12:00:00Z') }),
    };
  };
  const rowsBefore = await everyRow();
  const answersBefore = await answers();
  expect(answersBefore.windowed.rows).toHaveLength(25);
  expect(answersBefore.second.rows.length).toBeGreaterThan(0);
  expect(answersBefore.stats.length).toBeGreaterThan(0);
  const [maxBefore] = (await db.execute(sql`select max(id)::int as id from measurements`)) as unknown as [{ id: number }];

  await applyMigrationFile(url, PARTITIONING, partitioningWhen);
  await migrateDatabase(url); // finds nothing left to apply (0024 was the only one missing)

  const [partitioned] = (await db.execute(sql`select relkind from pg_class where relname = 'measurements'`)) as unknown as [{ relkind: string }];
  expect(partitioned.relkind).toBe('p');
  expect(await everyRow()).toEqual(rowsBefore);
  expect(await answers()).toEqual(answersBefore);
  // each row in its month's partition (the 2028 one in the default partition); one job key per row
  const placed = (await db.execute(sql`
    select tableoid::regclass::text as part, min(measured_at) as lo, max(measured_at) as hi, count(*)::int as n
    from measurements group by 1 order by 2`)) as unknown as Array<{ part: string; lo: string; hi: string; n: number }>;
  expect(placed.map((x) => x.part)).toEqual([
    'measurements_p202503',
    'measurements_p202607',
    'measurements_p202608',
    'measurements_p202609',
    'measurements_p202610',
    'measurements_p202611',
    DEFAULT_MEASUREMENT_PARTITION,
  ]);
  for (const x of placed.slice(0, -1)) {
    expect(measurementPartitionName(new Date(x.lo))).toBe(x.part);
    expect(measurementPartitionName(new Date(x.hi))).toBe(x.part);
  }
  expect(placed.reduce((s, x) => s + x.n, 0)).toBe(rows.length);
  const [{ keys }] = (await db.execute(sql`select count(*)::int as keys from measurement_job_keys`)) as unknown as [{ keys: number }];
  expect(keys).toBe(rows.length);
  // ids go on from the old sequence; an old job key still refuses a second row
  const fresh = { ...rows[0]!, jobKey: 'after-migration', measuredAt: new Date() };
  expect(await insertMeasurement(db, fresh)).toBe(true);
  const [{ id }] = (await db.execute(sql`select id::int from measurements where job_key = 'after-migration'`)) as unknown as [{ id: number }];
  expect(id).toBe(maxBefore.id + 1);
  expect(await insertMeasurement(db, { ...rows[5]!, measuredAt: new Date() })).toBe(false);
  // the old table is gone, the sequence belongs to the new one
  const [{ legacy, owner }] = (await db.execute(sql`
    select to_regclass('measurements_unpartitioned') is null as legacy,
           (select d.refobjid::regclass::text from pg_depend d where d.objid = 'measurements_id_seq'::regclass and d.deptype = 'a') as owner`)) as unknown as [
    { legacy: boolean; owner: string },
  ];
  expect({ legacy, owner }).toEqual({ legacy: true, owner: 'measurements' });
}, 300_000);
