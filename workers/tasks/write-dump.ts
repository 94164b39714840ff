/**
 * Task: write-dump (weekly, Mondays 00:05 UTC, its descriptor, workers/tasks/index.ts; also once at every worker start,
 * so the first dump exists from the first start). Writes the public data dump of the last complete
 * UTC week [Monday 00:00 − 7 d, Monday 00:00): every measurement of every public endpoint, one CSV
 * line each, with exactly the columns of /api/v1/endpoints/{id}/measurements.csv (the one flattener
 * over the Measurement schema, no timelines), gzip-compressed and stored in ~1 MiB chunks with its
 * SHA-256 and a manifest (columns with units and sources, counts, checksums). Idempotent: a week
 * already dumped is left as it is, so a restart or a second worker writes nothing twice.
 * Memory stays flat: rows are read 2,000 at a time per endpoint (keyset on the endpoint-time index)
 * and gzip output is written as it is produced. Decision 077.
 */
import { listAnnotations, listDisputes } from '@/db/queries/disputes';
import { listDisclosureRevisions } from '@/db/queries/disclosure-revisions';
import { publishAnnotation, publishDispute } from '@/lib/api/publish-dispute';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Db } from '@/db/client';
import { listPublicEndpointIds, writeDumpInTransaction, type DumpRow } from '@/db/queries/dumps';
import { listMeasurements, type MeasurementCursor } from '@/db/queries/measurements';
import { csvColumnsOf, csvHeaderLine, csvRowLine } from '@/lib/api/csv';
import { dumpPaths } from '@/lib/api/dump-paths';
import { publishMeasurement } from '@/lib/api/publish-measurement';
import { measurementSchema } from '@/lib/api/response-schemas';
import { QUEUES } from '@/lib/queues';
import { defineHousekeepingTask } from '../task';

/** Queue of this task (policy singleton: one dump at a time). */
export const WRITE_DUMP_QUEUE = QUEUES.writeDump;

const DAY = 86400_000;
const CHUNK_BYTES = 1024 * 1024;
const PAGE_ROWS = 2000;

/** The last complete ISO week (Monday 00:00 UTC to the next) that ended at or before `now`. */
export function lastCompleteWeek(now: Date): { fromAt: Date; untilAt: Date } {
  const today = Math.floor(now.getTime() / DAY) * DAY;
  const weekday = (new Date(today).getUTCDay() + 6) % 7; // Monday = 0
  const untilAt = new Date(today - weekday * DAY);
  return { fromAt: new Date(untilAt.getTime() - 7 * DAY), untilAt };
}

/**
 * Writes the dump of [fromAt, untilAt) unless it exists. Returns the dump and whether this call
 * wrote it. `chunkBytes` (default 1 MiB) is the size at which stored chunks are cut.
 */
export async function writeDump(
  db: Db,
  period: { fromAt: Date; untilAt: Date },
  options: { chunkBytes?: number } = {},
): Promise<{ dump: DumpRow; created: boolean }> {
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  const columns = csvColumnsOf(measurementSchema, ['timeline']);
  return writeDumpInTransaction(db, period, async (tx, sink, dumpId) => {
    const endpointIds = await listPublicEndpointIds(tx);
    const csvHash = createHash('sha256');
    const gzHash = createHash('sha256');
    let rows = 0;
    let bytes = 0;
    async function* csvText(): AsyncGenerator<string> {
      const header = csvHeaderLine(columns);
      csvHash.update(header);
      yield header;
      for (const endpointId of endpointIds) {
        let cursor: MeasurementCursor | null = null;
        do {
          const page = await listMeasurements(tx, {
            filter: { endpointId, since: period.fromAt, before: period.untilAt },
            limit: PAGE_ROWS,
            cursor,
            order: 'asc',
          });
          let text = '';
          for (const r of page.rows) text += csvRowLine(columns, publishMeasurement(r, false));
          rows += page.rows.length;
          if (text) {
            csvHash.update(text);
            yield text;
          }
          cursor = page.nextCursor;
        } while (cursor);
      }
    }
    await pipeline(Readable.from(csvText()), createGzip({ level: 9 }), async (gz: AsyncIterable<Buffer>) => {
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = async () => {
        if (pendingBytes === 0) return;
        await sink.appendChunk(Buffer.concat(pending));
        pending = [];
        pendingBytes = 0;
      };
      for await (const chunk of gz) {
        gzHash.update(chunk);
        bytes += chunk.length;
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= chunkBytes) await flush();
      }
      await flush();
    });
    const sha256 = gzHash.digest('hex');
    // Disputes and annotations known when the dump was written (decision 232); later ones are in the API.
    const disputed = (await listDisputes(tx, { limit: 10_000 })).filter((d) => d.fromAt < period.untilAt && d.untilAt > period.fromAt);
    const notes = await listAnnotations(tx, { from: period.fromAt, until: period.untilAt, limit: 10_000 });
    // The declared metadata each row's disclosureRevisionId names (decision 178).
    const revisions = (await listDisclosureRevisions(tx, endpointIds)).filter((r) => r.effectiveFrom < period.untilAt.toISOString());
    const manifest = {
      format: 'tokenpace-measurements-dump/1',
      id: dumpId,
      from: period.fromAt.toISOString(),
      until: period.untilAt.toISOString(),
      rows,
      bytes,
      sha256,
      csvSha256: csvHash.digest('hex'),
      file: dumpPaths(dumpId).file,
      order: 'endpointId ascending, then measuredAt and id ascending',
      rankableRule:
        'Published percentiles (leaderboard, history) are type-7 percentiles of the rows with rankable = true in the window; measurements of public endpoints only; from ≤ measuredAt < until.',
      columns: columns.map((c) => ({ name: c.name, description: c.description ?? '' })),
      disputes: disputed.map(publishDispute),
      annotations: notes.map(publishAnnotation),
      disclosureRevisions: revisions,
      createdAt: new Date().toISOString(),
    };
    return { rows, bytes, sha256, manifest };
  });
}

/** One scheduled run: the dump of the last complete week before `now`. */
export async function runWriteDumpJob(db: Db, now: Date): Promise<{ dump: DumpRow; created: boolean }> {
  return writeDump(db, lastCompleteWeek(now));
}

/** The descriptor (workers/task.ts): jobs role, Mondays 00:05 UTC and once at start (idempotent per week). */
export const writeDumpTask = defineHousekeepingTask({
  task: 'write-dump',
  description: 'Write the public data dump of the last complete UTC week (gzip CSV of every measurement + manifest + SHA-256).',
  queue: { name: QUEUES.writeDump, policy: 'singleton' },
  schedule: { cron: '5 0 * * 1', alsoAtStart: true },
  run: async (deps) => {
    const r = await runWriteDumpJob(deps.db, deps.now());
    if (r.created)
      deps.log.info(
        { dumpId: r.dump.id, from: r.dump.fromAt.toISOString(), rows: r.dump.rows, bytes: r.dump.bytes, sha256: r.dump.sha256 },
        'weekly dump written',
      );
    return { dumpId: r.dump.id, created: r.created };
  },
});
