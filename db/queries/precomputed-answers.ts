/**
 * Precomputed answers (decision 120): the most-read leaderboard answers, computed once per change by
 * workers/tasks/precompute-answers.ts and served by the web as stored bytes with their ETag. An
 * answer's text is its snapshot's body (one copy, decision 314).
 */
import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { endpoints, models, precomputedAnswers, snapshots, workloads } from '../schema';
import type { NewSnapshot } from './snapshots';

/**
 * One answer to store: `etag` its strong ETag (quoted), `contentHash` its content without
 * `snapshotId` and `asOf` (decision 300). Its exact text is the body of snapshot `snapshotId`,
 * stored with it ({@link savePrecomputedAnswers}; once, not a second copy here: decision 314).
 */
export interface NewPrecomputedAnswer {
  key: string;
  kind: string;
  asOf: Date;
  snapshotId: string;
  etag: string;
  contentHash: string;
}

/** One stored answer as served: `body` is the exact JSON text (its snapshot's), `etag` its strong ETag (quoted). */
export interface PrecomputedAnswer {
  key: string;
  kind: string;
  asOf: Date;
  snapshotId: string;
  etag: string;
  body: string;
}

/**
 * The (model, workload) pairs worth precomputing: listed models with an endpoint that is probed now
 * (active) or was measured within the longest precomputed window (hourly rollups of the last 8
 * days) × the scheduled workloads (the grid the probes measure). Ordered by slugs. A catalog of many
 * models waiting for their keys (issue 27) adds nothing to the job: their boards are empty and are
 * computed on demand (decision 223). `now` is the job's instant.
 */
export async function listPrecomputeTargets(db: Db, now: Date = new Date()): Promise<Array<{ modelSlug: string; workloadSlug: string }>> {
  const ms = await db
    .selectDistinct({ slug: models.slug })
    .from(models)
    .innerJoin(endpoints, eq(endpoints.modelId, models.id))
    .where(
      and(
        eq(models.listed, true),
        // One pass over the 8 days' hourly rows (a hashed set), not one scan of them per endpoint
        // (the rollups' index leads with the bucket; 113 ms at the bench's catalog, decision 311).
        sql`("endpoints"."status" = 'active' or "endpoints"."id" in (select r.endpoint_id from measurement_rollups r where r.granularity = 'hour' and r.bucket_start >= ${new Date(now.getTime() - 8 * 86400_000).toISOString()}::timestamptz))`,
      ),
    )
    .orderBy(models.slug);
  const ws = await db.select({ slug: workloads.slug }).from(workloads).where(eq(workloads.scheduled, true)).orderBy(workloads.slug);
  return ms.flatMap((m) => ws.map((w) => ({ modelSlug: m.slug, workloadSlug: w.slug })));
}

/**
 * Stores answers and their snapshots in ONE transaction, so a precomputed answer is citable by its
 * snapshotId the moment it can be served; the snapshot's body is the answer's text (stored once,
 * decision 314), so every row's snapshot must be among `snaps` or already stored (a foreign key).
 * A row replaces the stored answer of its key unless the stored one is newer (`asOf`); snapshots
 * keep their first body (ON CONFLICT DO NOTHING). Every replaced row gets `computed_at = now()`.
 * Instances learn of new answers from the data change the job records after this
 * (db/queries/data-changes, decision 215).
 */
export async function savePrecomputedAnswers(db: Db, rows: NewPrecomputedAnswer[], snaps: NewSnapshot[]): Promise<void> {
  if (rows.length === 0) return;
  const uniqueSnaps = [...new Map(snaps.map((s) => [s.id, s])).values()];
  await db.transaction(async (tx) => {
    if (uniqueSnaps.length > 0) await tx.insert(snapshots).values(uniqueSnaps).onConflictDoNothing({ target: snapshots.id });
    await tx
      .insert(precomputedAnswers)
      .values(rows)
      .onConflictDoUpdate({
        target: precomputedAnswers.key,
        set: {
          asOf: sql`excluded.as_of`,
          snapshotId: sql`excluded.snapshot_id`,
          etag: sql`excluded.etag`,
          contentHash: sql`excluded.content_hash`,
          computedAt: sql`now()`,
        },
        // Same instant, same data → same bytes: no write, no version change.
        setWhere: sql`${precomputedAnswers.asOf} <= excluded.as_of and ${precomputedAnswers.etag} <> excluded.etag`,
      });
  });
}

/**
 * Every stored answer of one kind: key, asOf and content hash (the precompute job's first run in a
 * process, decision 300). `body` (the snapshot's text) only for a row stored without its hash
 * (before migration 0028), else null: the hash is then the caller's to compute.
 */
export async function listPrecomputedAnswerHashes(
  db: Db,
  kind: string,
): Promise<Array<{ key: string; asOf: Date; contentHash: string | null; body: string | null }>> {
  return db
    .select({
      key: precomputedAnswers.key,
      asOf: precomputedAnswers.asOf,
      contentHash: precomputedAnswers.contentHash,
      body: sql<string | null>`case when ${precomputedAnswers.contentHash} is null then ${snapshots.body} end`,
    })
    .from(precomputedAnswers)
    .innerJoin(snapshots, eq(snapshots.id, precomputedAnswers.snapshotId))
    .where(eq(precomputedAnswers.kind, kind));
}

/**
 * Deletes the stored answers of `kind` whose key is not in `keys` (questions no longer asked): a
 * stored answer stays current until its content changes (decision 300), so one no longer
 * recomputed must not stay. Returns the rows deleted.
 */
export async function deletePrecomputedAnswersOtherThan(db: Db, kind: string, keys: readonly string[]): Promise<number> {
  const where = keys.length > 0 ? and(eq(precomputedAnswers.kind, kind), notInArray(precomputedAnswers.key, [...keys])) : eq(precomputedAnswers.kind, kind);
  const rows = await db.delete(precomputedAnswers).where(where).returning({ key: precomputedAnswers.key });
  return rows.length;
}

/** The stored answer of one key with its text (its snapshot's body), or null. */
export async function getPrecomputedAnswer(db: Db, key: string): Promise<PrecomputedAnswer | null> {
  const rows = await db
    .select({
      key: precomputedAnswers.key,
      kind: precomputedAnswers.kind,
      asOf: precomputedAnswers.asOf,
      snapshotId: precomputedAnswers.snapshotId,
      etag: precomputedAnswers.etag,
      body: snapshots.body,
    })
    .from(precomputedAnswers)
    .innerJoin(snapshots, eq(snapshots.id, precomputedAnswers.snapshotId))
    .where(eq(precomputedAnswers.key, key))
    .limit(1);
  return rows[0] ?? null;
}
