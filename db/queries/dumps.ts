/**
 * Weekly public data dumps (decision 077): the gzip CSV bytes live in `dump_chunks` (≤ 1 MiB per
 * row) beside their `dumps` row, so every web instance sharing the database serves them and a
 * download streams chunk by chunk. A dump is written inside one transaction (`writeDumpInTransaction`),
 * so a listed dump always has all its chunks.
 */
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { dumpChunks, dumps, endpoints } from '../schema';

/** A dump as listed (no bytes). */
export interface DumpRow {
  id: number;
  fromAt: Date;
  untilAt: Date;
  rows: number;
  bytes: number;
  sha256: string;
  manifest: Record<string, unknown>;
  createdAt: Date;
}

const dumpColumns = {
  id: dumps.id,
  fromAt: dumps.fromAt,
  untilAt: dumps.untilAt,
  rows: dumps.rows,
  bytes: dumps.bytes,
  sha256: dumps.sha256,
  manifest: dumps.manifest,
  createdAt: dumps.createdAt,
};

/** Every dump, newest period first. */
export async function listDumps(db: Db): Promise<DumpRow[]> {
  return db.select(dumpColumns).from(dumps).orderBy(desc(dumps.fromAt), desc(dumps.id));
}

/** One dump by id, or null. */
export async function getDump(db: Db, id: number): Promise<DumpRow | null> {
  const rows = await db.select(dumpColumns).from(dumps).where(eq(dumps.id, id)).limit(1);
  return rows[0] ?? null;
}

/** The dump of exactly [fromAt, untilAt), or null. */
async function findDumpByPeriod(db: Db, fromAt: Date, untilAt: Date): Promise<DumpRow | null> {
  const rows = await db
    .select(dumpColumns)
    .from(dumps)
    .where(and(eq(dumps.fromAt, fromAt), eq(dumps.untilAt, untilAt)))
    .limit(1);
  return rows[0] ?? null;
}

/** Chunk `seq` of a dump's gzip bytes, or null past the end. */
export async function readDumpChunk(db: Db, dumpId: number, seq: number): Promise<Buffer | null> {
  const rows = await db
    .select({ data: dumpChunks.data })
    .from(dumpChunks)
    .where(and(eq(dumpChunks.dumpId, dumpId), eq(dumpChunks.seq, seq)))
    .limit(1);
  return rows[0]?.data ?? null;
}

/** Ids of the endpoints whose measurements are public (the statuses every list shows), ascending. */
export async function listPublicEndpointIds(db: Db): Promise<number[]> {
  const rows = await db
    .select({ id: endpoints.id })
    .from(endpoints)
    .where(inArray(endpoints.status, ['active', 'inactive', 'paused', 'retired'] as const))
    .orderBy(asc(endpoints.id));
  return rows.map((r) => r.id);
}

/** What the writer callback gets: append a chunk, in order. */
interface DumpSink {
  appendChunk: (data: Buffer) => Promise<void>;
}

/**
 * Writes the dump of [fromAt, untilAt) in one transaction: claims the period (a concurrent writer of
 * the same period waits on the unique index, then finds it taken), lets `write` stream the chunks
 * (reading through the same transaction's `tx`), then stores the totals and the manifest. Returns
 * the dump, or `{ existing }` when the period was already dumped (nothing written).
 */
export async function writeDumpInTransaction(
  db: Db,
  period: { fromAt: Date; untilAt: Date },
  write: (tx: Db, sink: DumpSink, dumpId: number) => Promise<{ rows: number; bytes: number; sha256: string; manifest: Record<string, unknown> }>,
): Promise<{ dump: DumpRow; created: boolean }> {
  const created = await db.transaction(async (tx) => {
    const claimed = await tx
      .insert(dumps)
      .values({ fromAt: period.fromAt, untilAt: period.untilAt, rows: 0, bytes: 0, sha256: '', manifest: {} })
      .onConflictDoNothing()
      .returning({ id: dumps.id });
    if (claimed.length === 0) return null;
    const dumpId = claimed[0]!.id;
    let seq = 0;
    const sink: DumpSink = {
      appendChunk: async (data) => {
        await tx.insert(dumpChunks).values({ dumpId, seq: seq++, data });
      },
    };
    const totals = await write(tx as unknown as Db, sink, dumpId);
    await tx
      .update(dumps)
      .set({ rows: totals.rows, bytes: totals.bytes, sha256: totals.sha256, manifest: totals.manifest, createdAt: sql`now()` })
      .where(eq(dumps.id, dumpId));
    return dumpId;
  });
  if (created !== null) return { dump: (await getDump(db, created))!, created: true };
  return { dump: (await findDumpByPeriod(db, period.fromAt, period.untilAt))!, created: false };
}
