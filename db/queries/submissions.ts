import { createHash } from 'node:crypto';
import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import { confusableSkeleton, latinSkeleton } from '@/lib/security/display-names';
import { judgeProviderClaim, type ProviderClaim } from '@/lib/security/provider-claim';
import type { ServiceTierDeclaration, TierObjective } from '@/lib/probe/service-tier';
import type { EndpointPricing } from '@/lib/catalog/pricing';
import type { Db } from '../client';
import { endpoints, endpointSubmissions, endpointVerifications, measurements, models, providers, users } from '../schema';
import { insertAuditEvent } from './audit';
import { recordDisclosure } from './disclosure-revisions';
import { endpointDeploymentColumns, endpointNameColumns } from './endpoint-columns';
import { deploymentOf, type DeclaredServingFacts } from '@/lib/catalog/endpoint-deployment';

/** Endpoint statuses a submitter's endpoint can have. */
export type EndpointStatus = (typeof endpoints.status.enumValues)[number];

/** Thrown inside a submission transaction when the account already has the most pending submissions. */
export class PendingLimitError extends Error {
  constructor(readonly max: number) {
    super(`at most ${max} submissions may wait for review at once`);
  }
}

/** Thrown inside a submission transaction when a new provider name reads like an existing provider's (a look-alike). */
export class LookAlikeNameError extends Error {
  constructor(readonly existingName: string) {
    super(`looks like the existing provider "${existingName}"; use its exact name`);
  }
}

/**
 * Slug of a new provider's name: slugify(name), or for names with no Latin letters or digits a
 * stable `p-<hash>` (one per name), so different non-Latin names never share a slug.
 */
export function providerSlugOf(name: string): string {
  return slugify(name) || `p-${createHash('sha256').update(name).digest('hex').slice(0, 10)}`;
}

/** Lower-case slug of a display name ('' when nothing usable is left). */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
}

/** A listed model by slug, or null. */
export async function getListedModelBySlug(db: Db, slug: string) {
  const rows = await db
    .select({ id: models.id, slug: models.slug, name: models.name })
    .from(models)
    .where(and(eq(models.slug, slug), eq(models.listed, true)))
    .limit(1);
  return rows[0] ?? null;
}

/** Listed models for the submission form's picker. */
export async function listModelChoices(db: Db) {
  return db.select({ slug: models.slug, name: models.name }).from(models).where(eq(models.listed, true)).orderBy(models.name);
}

/** Submitted-endpoint fields as stored (no API key: only its encrypted envelope). */
export interface NewSubmission extends DeclaredServingFacts {
  ownerUserId: string;
  providerName: string;
  /** A listed model's id, or null with proposedModelName set. */
  modelId: number | null;
  proposedModelName: string | null;
  protocol: (typeof endpoints.protocol.enumValues)[number];
  baseUrl: string;
  apiModelId: string;
  apiKeyEncrypted: string | null;
  deploymentKind: 'shared' | 'dedicated' | 'self-hosted';
  /** the serving system it is, in the claims' words (decision 073); null when undeclared */
  system: string | null;
  contact: string;
  notes: string | null;
  /** Declared prices (lib/catalog/pricing), or null. */
  pricing?: EndpointPricing | null;
  /** Declared context window, tokens (the ~100k workloads run only where it holds them); null when undeclared. */
  contextWindowTokens?: number | null;
  /** Declared service tier (lib/probe/service-tier), validated against the protocol; null: default tier. */
  serviceTier?: ServiceTierDeclaration | null;
  /** The provider's published objective for the tier, or null. */
  tierObjective?: TierObjective | null;
}

/**
 * Stores a submission in one transaction: the provider (matched by slug, else created unlisted),
 * the model (given, or created unlisted from the proposal), the endpoint (status 'pending'), its
 * submission row and an audit event. Serialised per account (advisory lock) so the pending cap
 * holds under concurrent requests: throws PendingLimitError when the account already has
 * `maxPending` pending submissions, LookAlikeNameError when a new provider name reads like an
 * existing provider's. Nothing is written when it throws.
 */
export async function createSubmission(db: Db, s: NewSubmission, maxPending: number): Promise<{ endpointId: number; slug: string }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`submit:${s.ownerUserId}`}))`);
    const [{ n } = { n: 0 }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(endpoints)
      .where(and(eq(endpoints.ownerUserId, s.ownerUserId), eq(endpoints.status, 'pending')));
    if (n >= maxPending) throw new PendingLimitError(maxPending);

    const providerSlug = providerSlugOf(s.providerName);
    let proposedProvider = false;
    let providerClaim: ProviderClaim = 'new_provider';
    let [provider] = await tx
      .select({ id: providers.id, slug: providers.slug, websiteUrl: providers.websiteUrl })
      .from(providers)
      .where(eq(providers.slug, providerSlug))
      .limit(1);
    if (provider) {
      // An existing provider: attached only as a claim, proven by a verified address at its domain
      // or linked by an admin at review (decision 162).
      // An account that created the provider, or was linked to it or proved it before, keeps it.
      const [earlier] = await tx
        .select({ claim: endpointSubmissions.providerClaim })
        .from(endpointSubmissions)
        .innerJoin(endpoints, eq(endpoints.id, endpointSubmissions.endpointId))
        .where(
          and(
            eq(endpointSubmissions.ownerUserId, s.ownerUserId),
            eq(endpoints.providerId, provider.id),
            inArray(endpointSubmissions.providerClaim, ['new_provider', 'verified_domain', 'admin_linked']),
          ),
        )
        .limit(1);
      const [owner] = await tx.select({ email: users.email, emailVerified: users.emailVerified }).from(users).where(eq(users.id, s.ownerUserId)).limit(1);
      const judged = owner ? judgeProviderClaim({ email: owner.email, emailVerified: owner.emailVerified, websiteUrl: provider.websiteUrl }) : 'unverified';
      providerClaim = judged === 'verified_domain' ? judged : earlier ? 'admin_linked' : 'unverified';
    } else {
      // A new name whose Latin reading is an existing provider's slug is a look-alike (e.g. all-Cyrillic "Ѕсаlе").
      const skeleton = latinSkeleton(s.providerName);
      const skeletonSlug = skeleton ? slugify(skeleton) : '';
      if (skeletonSlug && skeletonSlug !== providerSlug) {
        const [twin] = await tx.select({ name: providers.name }).from(providers).where(eq(providers.slug, skeletonSlug)).limit(1);
        if (twin) throw new LookAlikeNameError(twin.name);
      }
      // …and so is one whose confusable skeleton equals an existing provider's (`Gr0q`, `ɢʀᴏǫ`, `Groq\u0301`; issue 19 #15).
      const mine = confusableSkeleton(s.providerName);
      if (mine) {
        const all = await tx.select({ name: providers.name }).from(providers);
        const twin = all.find((p) => confusableSkeleton(p.name) === mine);
        if (twin) throw new LookAlikeNameError(twin.name);
      }
      proposedProvider = true;
      [provider] = await tx
        .insert(providers)
        .values({ slug: providerSlug, name: s.providerName, kind: 'provider', listed: false })
        .onConflictDoUpdate({ target: providers.slug, set: { slug: sql`excluded.slug` } })
        .returning({ id: providers.id, slug: providers.slug, websiteUrl: providers.websiteUrl });
    }

    let modelId = s.modelId;
    let modelSlug: string;
    if (modelId === null) {
      const base = slugify(s.proposedModelName ?? '') || 'model';
      modelSlug = `${base}-${randomSuffix()}`;
      const [m] = await tx.insert(models).values({ slug: modelSlug, name: s.proposedModelName!, listed: false }).returning({ id: models.id });
      modelId = m!.id;
    } else {
      const [m] = await tx.select({ slug: models.slug }).from(models).where(eq(models.id, modelId)).limit(1);
      modelSlug = m!.slug;
    }

    const slug = `${provider!.slug}-${modelSlug}`.slice(0, 100) + `-${randomSuffix()}`;
    const [endpoint] = await tx
      .insert(endpoints)
      .values({
        slug,
        providerId: provider!.id,
        modelId,
        protocol: s.protocol,
        baseUrl: s.baseUrl,
        apiModelId: s.apiModelId,
        apiKeyEncrypted: s.apiKeyEncrypted,
        ...deploymentOf(s),
        draftLength: s.draftLength,
        system: s.system,
        region: s.region,
        status: 'pending',
        ownerUserId: s.ownerUserId,
        contact: s.contact,
        notes: s.notes,
        pricing: s.pricing ?? null,
        contextWindowTokens: s.contextWindowTokens ?? null,
        serviceTier: s.serviceTier ?? null,
        tierObjective: s.tierObjective ?? null,
      })
      .returning({ id: endpoints.id });
    await tx
      .insert(endpointSubmissions)
      .values({ endpointId: endpoint!.id, ownerUserId: s.ownerUserId, proposedModel: s.modelId === null, proposedProvider, providerClaim });
    await recordDisclosure(tx, { endpointId: endpoint!.id, source: 'submission', userId: s.ownerUserId });
    await insertAuditEvent(tx, {
      actorUserId: s.ownerUserId,
      action: 'endpoint.submit',
      endpointId: endpoint!.id,
      details: { proposedModel: s.modelId === null, proposedProvider, providerClaim },
    });
    return { endpointId: endpoint!.id, slug };
  });
}

function randomSuffix(): string {
  return Math.random().toString(36).slice(2, 8).padEnd(6, '0');
}

/** Columns of a submitted endpoint as its owner and admins see it (never the key, only whether one is set). */
export const privateEndpointColumns = {
  ...endpointNameColumns,
  protocol: endpoints.protocol,
  baseUrl: endpoints.baseUrl,
  apiModelId: endpoints.apiModelId,
  hasApiKey: sql<boolean>`${endpoints.apiKeyEncrypted} is not null`,
  region: endpoints.region,
  ...endpointDeploymentColumns,
  draftLength: endpoints.draftLength,
  system: endpoints.system,
  contextWindowTokens: endpoints.contextWindowTokens,
  serviceTier: endpoints.serviceTier,
  tierObjective: endpoints.tierObjective,
  contact: endpoints.contact,
  notes: endpoints.notes,
  pricing: endpoints.pricing,
  status: endpoints.status,
  ownerUserId: endpoints.ownerUserId,
  rejectionReason: endpointSubmissions.rejectionReason,
  /** Version of the submission (1 at submission, +1 per owner edit); reviews name it. */
  revision: endpointSubmissions.revision,
  /** How the provider name is backed (decision 162). */
  providerClaim: endpointSubmissions.providerClaim,
  submittedAt: endpointSubmissions.submittedAt,
  reviewedAt: endpointSubmissions.reviewedAt,
  createdAt: endpoints.createdAt,
  updatedAt: endpoints.updatedAt,
};

/** Submitted endpoints with their private columns (submission, provider and model joined); add the filter. */
function selectSubmittedEndpoints(db: Db) {
  return db
    .select(privateEndpointColumns)
    .from(endpoints)
    .innerJoin(endpointSubmissions, eq(endpointSubmissions.endpointId, endpoints.id))
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .innerJoin(models, eq(models.id, endpoints.modelId));
}

/** A submitted endpoint (any status but deleted) with its private columns, or null. */
export async function getSubmittedEndpoint(db: Db, id: number) {
  const rows = await selectSubmittedEndpoints(db)
    .where(and(eq(endpoints.id, id), sql`${endpoints.status} <> 'deleted'`))
    .limit(1);
  return rows[0] ?? null;
}
export type SubmittedEndpoint = NonNullable<Awaited<ReturnType<typeof getSubmittedEndpoint>>>;

/** The probe target of a submitted endpoint, with the encrypted key (for the verification probe only). */
export async function getVerificationTarget(db: Db, id: number) {
  const rows = await db
    .select({
      id: endpoints.id,
      protocol: endpoints.protocol,
      baseUrl: endpoints.baseUrl,
      apiModelId: endpoints.apiModelId,
      apiKeyEncrypted: endpoints.apiKeyEncrypted,
      serviceTier: endpoints.serviceTier,
    })
    .from(endpoints)
    .where(eq(endpoints.id, id))
    .limit(1);
  return rows[0] ?? null;
}

/** Stores one verification probe's result. */
export async function insertVerification(db: Db, row: typeof endpointVerifications.$inferInsert): Promise<{ id: number }> {
  const [r] = await db.insert(endpointVerifications).values(row).returning({ id: endpointVerifications.id });
  return { id: Number(r!.id) };
}

const verificationColumns = {
  id: endpointVerifications.id,
  endpointId: endpointVerifications.endpointId,
  startedAt: endpointVerifications.startedAt,
  outcome: endpointVerifications.outcome,
  errorKind: endpointVerifications.errorKind,
  errorMessage: endpointVerifications.errorMessage,
  httpStatus: endpointVerifications.httpStatus,
  ttftMs: endpointVerifications.ttftMs,
  e2eMs: endpointVerifications.e2eMs,
  outputTokens: endpointVerifications.outputTokens,
  outputTokensPerSecond: endpointVerifications.outputTokensPerSecond,
};

/** The latest verification of each of these endpoints, by endpoint id. */
export async function getLatestVerifications(db: Db, endpointIds: number[]) {
  if (endpointIds.length === 0) return new Map<number, Awaited<ReturnType<typeof listVerifications>>[number]>();
  const rows = await db
    .selectDistinctOn([endpointVerifications.endpointId], verificationColumns)
    .from(endpointVerifications)
    .where(inArray(endpointVerifications.endpointId, endpointIds))
    .orderBy(endpointVerifications.endpointId, desc(endpointVerifications.id));
  return new Map(rows.map((r) => [r.endpointId, r]));
}

/** An endpoint's verification runs, newest first. */
export async function listVerifications(db: Db, endpointId: number, limit = 10) {
  return db
    .select(verificationColumns)
    .from(endpointVerifications)
    .where(eq(endpointVerifications.endpointId, endpointId))
    .orderBy(desc(endpointVerifications.id))
    .limit(limit);
}

/**
 * A provider's endpoints (not deleted) for the dashboard: private columns, latest verification,
 * last successful measurement and failures by kind over the last `since` window.
 */
export async function listOwnedEndpoints(db: Db, params: { ownerUserId: string; since: Date }) {
  const rows = await selectSubmittedEndpoints(db)
    .where(and(eq(endpoints.ownerUserId, params.ownerUserId), sql`${endpoints.status} <> 'deleted'`))
    .orderBy(desc(endpoints.id));
  const ids = rows.map((r) => r.id);
  const verifications = await getLatestVerifications(db, ids);
  const stats =
    ids.length === 0
      ? []
      : await db
          .select({
            endpointId: measurements.endpointId,
            successes: sql<number>`count(*) filter (where ${measurements.outcome} = 'success')::int`,
            failures: sql<number>`count(*) filter (where ${measurements.outcome} = 'error')::int`,
            medianTps: sql<
              number | null
            >`percentile_cont(0.5) within group (order by ${measurements.outputTokensPerSecond}) filter (where ${measurements.outcome} = 'success' and ${measurements.valid})`,
            medianTtftMs: sql<
              number | null
            >`percentile_cont(0.5) within group (order by ${measurements.ttftMs}) filter (where ${measurements.outcome} = 'success' and ${measurements.valid})`,
            lastMeasuredAt: sql<string | null>`max(${measurements.measuredAt})`,
          })
          .from(measurements)
          .where(and(inArray(measurements.endpointId, ids), gte(measurements.measuredAt, params.since)))
          .groupBy(measurements.endpointId);
  const kinds =
    ids.length === 0
      ? []
      : await db
          .select({ endpointId: measurements.endpointId, errorKind: measurements.errorKind, n: sql<number>`count(*)::int` })
          .from(measurements)
          .where(and(inArray(measurements.endpointId, ids), gte(measurements.measuredAt, params.since), eq(measurements.outcome, 'error')))
          .groupBy(measurements.endpointId, measurements.errorKind);
  const byId = new Map(stats.map((s) => [s.endpointId, s]));
  return rows.map((r) => {
    const s = byId.get(r.id);
    const failuresByKind: Record<string, number> = {};
    for (const k of kinds) if (k.endpointId === r.id) failuresByKind[k.errorKind ?? 'unknown'] = k.n;
    return {
      ...r,
      verification: verifications.get(r.id) ?? null,
      recent: {
        successes: s?.successes ?? 0,
        failures: s?.failures ?? 0,
        failuresByKind,
        medianOutputTokensPerSecond: s?.medianTps ?? null,
        medianTtftMs: s?.medianTtftMs ?? null,
        lastMeasuredAt: s?.lastMeasuredAt ? new Date(s.lastMeasuredAt).toISOString() : null,
      },
    };
  });
}

/** Pending submissions for the admin review queue, oldest first, with the submitter's email and latest verification. */
export async function listReviewQueue(db: Db) {
  const rows = await db
    .select({
      ...privateEndpointColumns,
      ownerEmail: users.email,
      ownerEmailVerified: users.emailVerified,
      proposedModel: endpointSubmissions.proposedModel,
      proposedProvider: endpointSubmissions.proposedProvider,
    })
    .from(endpoints)
    .innerJoin(endpointSubmissions, eq(endpointSubmissions.endpointId, endpoints.id))
    .innerJoin(providers, eq(providers.id, endpoints.providerId))
    .innerJoin(models, eq(models.id, endpoints.modelId))
    .innerJoin(users, eq(users.id, endpointSubmissions.ownerUserId))
    .where(eq(endpoints.status, 'pending'))
    .orderBy(endpoints.updatedAt);
  const verifications = await getLatestVerifications(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, verification: verifications.get(r.id) ?? null }));
}

/** Outcome of reviewSubmission. */
export type ReviewOutcome =
  | { status: 'active' | 'rejected' }
  | { status: null; reason: 'not_pending' }
  | { status: null; reason: 'provider_unverified' }
  | { status: null; reason: 'stale'; currentRevision: number };

/**
 * Approves or rejects a pending endpoint AS REVIEWED at `revision`, and logs it. Approval makes the
 * endpoint 'active' (the scheduler probes it from the next slot) and lists its provider and model.
 * The decision applies only if the submission is still at that revision: an owner edit after the
 * admin loaded it (a new URL, hardware, engine, …) answers `stale` with the current revision and
 * changes nothing (decision record 086). `not_pending` when the endpoint is not waiting for review
 * (already reviewed, deleted, or unknown).
 */
export async function reviewSubmission(
  db: Db,
  p: { endpointId: number; adminUserId: string; decision: 'approve' | 'reject'; reason: string | null; revision: number; linkProvider?: boolean },
): Promise<ReviewOutcome> {
  return db.transaction(async (tx) => {
    const status = p.decision === 'approve' ? 'active' : 'rejected';
    const now = new Date();
    // Lock the endpoint row first: an owner's edit (which also updates it) waits or has committed.
    const [current] = await tx
      .select({ status: endpoints.status, revision: endpointSubmissions.revision, providerClaim: endpointSubmissions.providerClaim })
      .from(endpoints)
      .innerJoin(endpointSubmissions, eq(endpointSubmissions.endpointId, endpoints.id))
      .where(eq(endpoints.id, p.endpointId))
      .for('update', { of: endpoints });
    if (!current || current.status !== 'pending') return { status: null, reason: 'not_pending' };
    if (current.revision !== p.revision) return { status: null, reason: 'stale', currentRevision: current.revision };
    // An unproven claim to an existing provider is approved only when the admin links it (decision 162).
    const linking = p.decision === 'approve' && current.providerClaim === 'unverified';
    if (linking && !p.linkProvider) return { status: null, reason: 'provider_unverified' };
    const rows = await tx
      .update(endpoints)
      .set({ status, updatedAt: now })
      .where(and(eq(endpoints.id, p.endpointId), eq(endpoints.status, 'pending')))
      .returning({ providerId: endpoints.providerId, modelId: endpoints.modelId });
    const row = rows[0];
    if (!row) return { status: null, reason: 'not_pending' };
    await tx
      .update(endpointSubmissions)
      .set({
        reviewedAt: now,
        reviewedByUserId: p.adminUserId,
        rejectionReason: p.decision === 'reject' ? p.reason : null,
        ...(linking ? { providerClaim: 'admin_linked' as const } : {}),
      })
      .where(eq(endpointSubmissions.endpointId, p.endpointId));
    if (p.decision === 'approve') {
      await tx.update(providers).set({ listed: true }).where(eq(providers.id, row.providerId));
      await tx.update(models).set({ listed: true }).where(eq(models.id, row.modelId));
    }
    await insertAuditEvent(tx, {
      actorUserId: p.adminUserId,
      action: p.decision === 'approve' ? 'endpoint.approve' : 'endpoint.reject',
      endpointId: p.endpointId,
      reason: p.reason,
      details: { revision: p.revision, ...(linking ? { providerClaim: 'admin_linked' } : {}) },
    });
    return { status };
  });
}

/** Fields an owner may change (the key only as its new encrypted envelope, or null to remove it). */
export type EndpointChanges = Partial<
  Pick<
    typeof endpoints.$inferInsert,
    | 'baseUrl'
    | 'protocol'
    | 'apiModelId'
    | 'apiKeyEncrypted'
    | 'region'
    | 'hardware'
    | 'engine'
    | 'precision'
    | 'speculativeDecoding'
    | 'draftLength'
    | 'deploymentKind'
    | 'system'
    | 'contact'
    | 'notes'
    | 'pricing'
    | 'contextWindowTokens'
    | 'serviceTier'
    | 'tierObjective'
  >
>;

/**
 * Applies an owner's edit and logs it (field names only, never values of the key); an edit
 * (`endpoint.edit`) also bumps the submission's revision. `status`
 * sets the new status when given ('pending' for re-review, 'paused'/'active' for pause/resume);
 * `fromStatuses` guards the transition. Returns false when the endpoint was not in one of them.
 */
export async function updateSubmittedEndpoint(
  db: Db,
  p: {
    endpointId: number;
    actorUserId: string;
    changes: EndpointChanges;
    status?: EndpointStatus;
    fromStatuses: EndpointStatus[];
    action: 'endpoint.edit' | 'endpoint.pause' | 'endpoint.resume' | 'endpoint.delete';
  },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const rows = await tx
      .update(endpoints)
      .set({ ...p.changes, ...(p.status ? { status: p.status } : {}), updatedAt: now })
      .where(and(eq(endpoints.id, p.endpointId), inArray(endpoints.status, p.fromStatuses)))
      .returning({ id: endpoints.id });
    if (rows.length === 0) return false;
    if (p.action === 'endpoint.edit') {
      // Any owner edit is a new version: a review made on the previous one no longer applies.
      await tx
        .update(endpointSubmissions)
        .set({ revision: sql`${endpointSubmissions.revision} + 1` })
        .where(eq(endpointSubmissions.endpointId, p.endpointId));
    }
    // A changed declared field is a dated disclosure revision (decision 178); other edits add none.
    await recordDisclosure(tx, { endpointId: p.endpointId, source: 'owner_edit', userId: p.actorUserId });
    if (p.status === 'pending') {
      await tx
        .update(endpointSubmissions)
        .set({ reviewedAt: null, reviewedByUserId: null, rejectionReason: null, submittedAt: now })
        .where(eq(endpointSubmissions.endpointId, p.endpointId));
    }
    if (p.status === 'deleted') await tx.update(endpointSubmissions).set({ deletedAt: now }).where(eq(endpointSubmissions.endpointId, p.endpointId));
    await insertAuditEvent(tx, {
      actorUserId: p.actorUserId,
      action: p.action,
      endpointId: p.endpointId,
      details: { fields: Object.keys(p.changes), ...(p.status ? { status: p.status } : {}) },
    });
    return true;
  });
}
