import { and, eq, gt, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { Db } from '../client';
import { regionFromBedrockHost } from '@/lib/probe/adapters/bedrock-converse-stream';
import { endpointSubmissions, endpoints, measurements, workloads } from '../schema';

/**
 * Active endpoints (with what the cadence needs) and the grid's workloads, at `now` (endpoints in
 * 429 back-off are left out until their notBefore instant). The scheduler (lib/probe/cadence)
 * decides which endpoint × workload pairs are due in a slot.
 */
export async function listDueProbeTargets(db: Db, now: Date) {
  const eps = await db
    .select({ id: endpoints.id, slug: endpoints.slug, isCalibration: endpoints.isCalibration, contextWindowTokens: endpoints.contextWindowTokens })
    .from(endpoints)
    .where(and(eq(endpoints.status, 'active'), or(isNull(endpoints.notBefore), lte(endpoints.notBefore, now))));
  const wls = await db.select({ id: workloads.id, slug: workloads.slug }).from(workloads).where(eq(workloads.scheduled, true));
  return { endpoints: eps, workloads: wls };
}

/**
 * Endpoint × workload pairs that have a fidelity measurement (any outcome) measured after `since`,
 * as `${endpointId}:${workloadId}` keys. The scheduler makes a probe a fidelity probe when its pair
 * has none in the last hour.
 */
export async function listRecentFidelityPairs(db: Db, since: Date): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ endpointId: measurements.endpointId, workloadId: measurements.workloadId })
    .from(measurements)
    .where(and(isNotNull(measurements.fidelityCheck), gt(measurements.measuredAt, since)));
  return new Set(rows.map((r) => `${r.endpointId}:${r.workloadId}`));
}

/**
 * Everything a worker needs to probe one endpoint with one workload; null when either is gone.
 * `operatorCredentials` says whether the operator's own credentials from the environment (the
 * endpoint's `apiKeyEnv` variable, AWS_ACCESS_KEY_ID/… for Bedrock SigV4) may be used: only for
 * catalog endpoints (seeded by the operator: no owner, no submission row). Submitted endpoints bring
 * their own key and never get the operator's — else an approved submission pointing at its own
 * `baseUrl` would receive the operator's key id and session token, or spend the operator's
 * account on the submitter's model (decision record 083). Bedrock SigV4 credentials additionally
 * go only to an AWS Bedrock runtime host (`awsCredentialsAllowed`).
 */
export async function getProbeSpec(db: Db, endpointId: number, workloadId: number) {
  const [row] = await db
    .select({ endpoint: endpoints, submissionOwner: endpointSubmissions.ownerUserId })
    .from(endpoints)
    .leftJoin(endpointSubmissions, eq(endpointSubmissions.endpointId, endpoints.id))
    .where(eq(endpoints.id, endpointId))
    .limit(1);
  const [workload] = await db.select().from(workloads).where(eq(workloads.id, workloadId)).limit(1);
  if (!row || !workload) return null;
  const { endpoint } = row;
  const operatorCredentials = endpoint.ownerUserId === null && row.submissionOwner === null;
  let bedrockHost: boolean;
  try {
    bedrockHost = regionFromBedrockHost(new URL(endpoint.baseUrl).host) !== null;
  } catch {
    bedrockHost = false;
  }
  return { endpoint, workload, operatorCredentials, awsCredentialsAllowed: operatorCredentials && bedrockHost };
}
