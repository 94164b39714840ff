/**
 * Disclosure revisions (decision 178): every edit path calls `recordDisclosure` in the transaction
 * that changed the endpoint row, which appends a revision when the declared values differ from the
 * newest revision (or when there is none yet). Measurements name the newest revision when stored
 * (`revisionInForceSql`). Reads: an endpoint's revisions, newest first.
 */
import { and, asc, desc, eq, inArray, notExists, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { disclosureRevisions, endpoints, models } from '../schema';
import { changedDisclosureFields, disclosureOf, type DisclosureField, type DisclosureSource, type DisclosureValues } from '@/lib/catalog/disclosure';

/** A transaction or the pool: recordDisclosure runs inside the caller's transaction. */
type Tx = Pick<Db, 'select' | 'insert' | 'execute'>;

/** The endpoint row's declared values now (model joined for its slug); null when no such endpoint. */
async function currentDisclosure(tx: Tx, endpointId: number): Promise<DisclosureValues | null> {
  const [row] = await tx
    .select({
      modelSlug: models.slug,
      apiModelId: endpoints.apiModelId,
      hardware: endpoints.hardware,
      gpuCount: endpoints.gpuCount,
      engine: endpoints.engine,
      precision: endpoints.precision,
      speculativeDecoding: endpoints.speculativeDecoding,
      draftLength: endpoints.draftLength,
      deploymentKind: endpoints.deploymentKind,
      region: endpoints.region,
      system: endpoints.system,
      contextWindowTokens: endpoints.contextWindowTokens,
    })
    .from(endpoints)
    .innerJoin(models, eq(models.id, endpoints.modelId))
    .where(eq(endpoints.id, endpointId))
    .limit(1);
  return row ? disclosureOf(row) : null;
}

/**
 * Appends a revision of `endpointId` when its declared values differ from its newest revision (or
 * it has none). Call inside the transaction that changed the row (that transaction holds the row's
 * lock, so two edits never take the same number). Returns the new revision's id and number, or
 * null when nothing changed. Bounded by its callers: the catalog changes only with a reviewed file,
 * owner edits count against the `submission` limit (20 per hour per account).
 */
export async function recordDisclosure(
  tx: Tx,
  p: { endpointId: number; source: DisclosureSource; userId: string | null; at?: Date },
): Promise<{ id: number; number: number } | null> {
  await tx.execute(sql`select 1 from ${endpoints} where ${endpoints.id} = ${p.endpointId} for update`);
  const values = await currentDisclosure(tx, p.endpointId);
  if (!values) return null;
  const [latest] = await tx
    .select({ number: disclosureRevisions.number, values: disclosureRevisions.values })
    .from(disclosureRevisions)
    .where(eq(disclosureRevisions.endpointId, p.endpointId))
    .orderBy(desc(disclosureRevisions.number))
    .limit(1);
  const changed = changedDisclosureFields(latest?.values ?? null, values);
  if (latest && changed.length === 0) return null;
  const [row] = await tx
    .insert(disclosureRevisions)
    .values({
      endpointId: p.endpointId,
      number: (latest?.number ?? 0) + 1,
      source: p.source,
      changedByUserId: p.userId,
      values,
      changedFields: changed,
      ...(p.at ? { effectiveFrom: p.at } : {}),
    })
    .returning({ id: disclosureRevisions.id, number: disclosureRevisions.number });
  return row!;
}

/**
 * Gives every endpoint without a revision its first one (`backfill`: the values in force when
 * revisions began, dated by the row's last update). Run by the catalog seed at every start; returns
 * how many it wrote.
 */
export async function backfillDisclosures(tx: Tx): Promise<number> {
  const missing = await tx
    .select({ id: endpoints.id, updatedAt: endpoints.updatedAt })
    .from(endpoints)
    .where(
      notExists(
        tx
          .select({ one: sql`1` })
          .from(disclosureRevisions)
          .where(eq(disclosureRevisions.endpointId, endpoints.id)),
      ),
    )
    .orderBy(asc(endpoints.id));
  for (const e of missing) await recordDisclosure(tx, { endpointId: e.id, source: 'backfill', userId: null, at: e.updatedAt });
  return missing.length;
}

/**
 * SQL for the id of an endpoint's newest revision: the disclosure in force when a measurement is
 * stored (db/queries/measurements insertMeasurement). Null when the endpoint has none.
 */
export function revisionInForceSql(endpointId: number): SQL<number | null> {
  return sql<
    number | null
  >`(select ${disclosureRevisions.id} from ${disclosureRevisions} where ${disclosureRevisions.endpointId} = ${endpointId} order by ${disclosureRevisions.number} desc limit 1)`;
}

/** Public columns of a revision (who is a role, never a user id). */
const revisionColumns = {
  id: disclosureRevisions.id,
  endpointId: disclosureRevisions.endpointId,
  number: disclosureRevisions.number,
  effectiveFrom: disclosureRevisions.effectiveFrom,
  source: disclosureRevisions.source,
  values: disclosureRevisions.values,
  changedFields: disclosureRevisions.changedFields,
};

/** One published revision: `effectiveFrom` ISO UTC, `changedFields` as stored. */
export interface DisclosureRevision {
  id: number;
  endpointId: number;
  number: number;
  effectiveFrom: string;
  source: DisclosureSource;
  values: DisclosureValues;
  changedFields: DisclosureField[];
}

/** Revisions of these endpoints, newest first per endpoint, at most `limit` per endpoint (default 200). */
export async function listDisclosureRevisions(db: Db, endpointIds: number[], limit = 200): Promise<DisclosureRevision[]> {
  if (endpointIds.length === 0) return [];
  const rows = await db
    .select(revisionColumns)
    .from(disclosureRevisions)
    .where(
      and(
        inArray(disclosureRevisions.endpointId, endpointIds),
        sql`${disclosureRevisions.number} > (select max(r2.number) from ${disclosureRevisions} r2 where r2.endpoint_id = ${disclosureRevisions.endpointId}) - ${limit}`,
      ),
    )
    .orderBy(asc(disclosureRevisions.endpointId), desc(disclosureRevisions.number));
  return rows.map((r) => ({ ...r, effectiveFrom: r.effectiveFrom.toISOString(), changedFields: r.changedFields as DisclosureField[] }));
}
