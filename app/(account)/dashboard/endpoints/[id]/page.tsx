import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getSubmittedEndpoint, listModelChoices, listVerifications } from '@/db/queries/submissions';
import { getSweepSettings, listEndpointSweeps } from '@/db/queries/sweeps';
import { checkSweepConsent } from '@/lib/sweep/sweep-consent';
import { DEFAULT_CONCURRENCY_LEVELS, DEFAULT_MIN_SUCCESS_RATE, DEFAULT_SWEEP_WARM_UP_MS } from '@/lib/sweep/run-sweep';
import { getDb } from '@/server/shared';
import { EndpointActions } from '../../../_components/endpoint-actions';
import { EndpointForm } from '../../../_components/endpoint-form';
import { SweepControl } from '../../../_components/sweep-control';
import { OpenDisputeForm } from '../../../_components/dispute-actions';
import { VerificationResult } from '../../../_components/verification-result';
import { requirePageUser } from '../../../_lib/page-user';

export const metadata: Metadata = { title: 'Manage endpoint' };

/** /dashboard/endpoints/{id} – the owner edits (URL/key changes go back to review), pauses or deletes one endpoint. */
export default async function ManageEndpointPage({ params }: { params: Promise<{ id: string }> }) {
  const { id: idParam } = await params;
  const user = await requirePageUser(`/dashboard/endpoints/${encodeURIComponent(idParam)}`);
  const id = Number(idParam);
  if (!Number.isInteger(id) || id <= 0 || id > 2_147_483_647) notFound();
  const db = getDb();
  const endpoint = await getSubmittedEndpoint(db, id);
  // Someone else's endpoint is "not found", like an unknown id.
  if (!endpoint || endpoint.ownerUserId !== user.id) notFound();
  const [verifications, models, sweepSettings, [latestSweep]] = await Promise.all([
    listVerifications(db, id, 5),
    listModelChoices(db),
    getSweepSettings(db, id),
    listEndpointSweeps(db, { endpointId: id, limit: 1 }),
  ]);
  return (
    <>
      <h1>
        {endpoint.provider} · {endpoint.model}
      </h1>
      <p>
        Status: <strong data-field="status">{endpoint.status}</strong>
        {endpoint.rejectionReason ? ` (reason: ${endpoint.rejectionReason})` : null} · <Link href="/dashboard">All your endpoints</Link>
        {endpoint.status === 'active' || endpoint.status === 'paused' ? (
          <>
            {' '}
            · <Link href={`/endpoints/${id}`}>Public page</Link>
          </>
        ) : null}
      </p>
      <EndpointActions id={id} status={endpoint.status} />
      {endpoint.status === 'active' || endpoint.status === 'paused' ? (
        <SweepControl
          endpointId={id}
          deploymentKind={endpoint.deploymentKind ?? null}
          settings={{
            enabled: sweepSettings?.enabled ?? false,
            maxConcurrency: sweepSettings?.maxConcurrency ?? 64,
            durationS: (sweepSettings?.durationMs ?? 30_000) / 1000,
          }}
          defaultLevels={[...DEFAULT_CONCURRENCY_LEVELS]}
          latestSweepId={latestSweep?.id ?? null}
          refusal={(() => {
            const verdict = checkSweepConsent({ status: endpoint.status, baseUrl: endpoint.baseUrl }, sweepSettings);
            return verdict.ok ? null : verdict.message;
          })()}
          warmUpS={DEFAULT_SWEEP_WARM_UP_MS / 1000}
          minSuccessRate={DEFAULT_MIN_SUCCESS_RATE}
        />
      ) : null}
      {endpoint.status === 'active' || endpoint.status === 'paused' || endpoint.status === 'inactive' ? (
        <>
          <h2>Dispute a figure</h2>
          <OpenDisputeForm endpointId={id} />
        </>
      ) : null}
      <h2>Verification probes</h2>
      {verifications.length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        verifications.map((v) => (
          <VerificationResult key={v.id} v={v} heading={`Verification ${v.startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`} />
        ))
      )}
      <h2>Edit</h2>
      <p className="small muted">
        Changing the base URL, protocol, API model id or API key sends the endpoint back to review and runs a new verification probe.
      </p>
      <EndpointForm models={models} initial={{ ...endpoint }} />
    </>
  );
}
