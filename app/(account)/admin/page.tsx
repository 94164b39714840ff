import type { Metadata } from 'next';
import { listAuditEvents } from '@/db/queries/audit';
import { listReviewQueue } from '@/db/queries/submissions';
import { getDb } from '@/server/shared';
import { ReviewActions } from '../_components/review-actions';
import { DecideDispute } from '../_components/dispute-actions';
import { listDisputes } from '@/db/queries/disputes';
import { VerificationResult } from '../_components/verification-result';
import { requirePageAdmin } from '../_lib/page-user';

export const metadata: Metadata = { title: 'Review queue' };

/** /admin – admins review pending submissions (approve / reject with reason) and read the audit log. */
export default async function AdminPage() {
  await requirePageAdmin('/admin');
  const db = getDb();
  const [queue, audit, openDisputes] = await Promise.all([
    listReviewQueue(db),
    listAuditEvents(db, { limit: 50 }),
    listDisputes(db, { status: 'open', limit: 100 }),
  ]);
  return (
    <>
      <h1>Review queue</h1>
      {queue.length === 0 ? <p className="empty">Nothing waits for review.</p> : null}
      {queue.map((e) => {
        const label = `${e.provider} · ${e.model} (#${e.id})`;
        return (
          <section key={e.id} className="card" aria-label={`Submission ${label}`} data-endpoint-id={e.id}>
            <h2>{label}</h2>
            <dl className="meta">
              <dt>Submitted by</dt>
              <dd>
                {e.ownerEmail} (contact: {e.contact})
              </dd>
              <dt>Target</dt>
              <dd>
                <code>{e.protocol}</code> {e.baseUrl} · model id <code>{e.apiModelId}</code> · {e.hasApiKey ? 'API key stored' : 'no API key'}
              </dd>
              <dt>Declared</dt>
              <dd>
                {[
                  e.hardware,
                  e.engine,
                  e.precision,
                  e.speculativeDecoding ? `${e.speculativeDecoding}${e.draftLength ? ` (draft ${e.draftLength})` : ''}` : null,
                  e.deploymentKind,
                  e.region,
                ]
                  .filter(Boolean)
                  .join(' · ') || '–'}
              </dd>
              <dt>Provider claim</dt>
              <dd data-provider-claim={e.providerClaim}>
                {e.providerClaim === 'new_provider'
                  ? 'new provider (reviewed as new)'
                  : e.providerClaim === 'verified_domain'
                    ? `verified: ${e.ownerEmail} is a verified address at the provider’s domain`
                    : `UNVERIFIED: nothing shows ${e.ownerEmail}${e.ownerEmailVerified ? '' : ' (address not verified)'} speaks for ${e.provider}; approving links it to ${e.provider}`}
              </dd>
              {e.proposedModel || e.proposedProvider ? (
                <>
                  <dt>New to the catalog</dt>
                  <dd>{[e.proposedProvider ? `provider "${e.provider}"` : null, e.proposedModel ? `model "${e.model}"` : null].filter(Boolean).join(', ')}</dd>
                </>
              ) : null}
              {e.notes ? (
                <>
                  <dt>Notes</dt>
                  <dd>{e.notes}</dd>
                </>
              ) : null}
            </dl>
            <VerificationResult v={e.verification} />
            <ReviewActions id={e.id} label={label} revision={e.revision} linkProvider={e.providerClaim === 'unverified'} />
          </section>
        );
      })}
      <h2>Open disputes</h2>
      {openDisputes.length === 0 ? <p className="empty">No open disputes.</p> : null}
      {openDisputes.map((d) => (
        <section key={d.id} className="card" aria-label={`Dispute ${d.id}`} data-dispute-id={d.id}>
          <h3>
            Dispute {d.id}: {d.endpointSlug} ({d.scope.replace('_', ' ')})
          </h3>
          <p>
            {d.fromAt.toISOString().slice(0, 16).replace('T', ' ')} – {d.untilAt.toISOString().slice(0, 16).replace('T', ' ')} UTC
            {d.measurementId ? ` · measurement ${d.measurementId}` : ''}
          </p>
          <p>{d.reason}</p>
          {d.evidence ? <p className="small">{d.evidence}</p> : null}
          {d.links.length ? (
            <ul className="small">
              {d.links.map((l) => (
                <li key={l}>{l}</li>
              ))}
            </ul>
          ) : null}
          <DecideDispute id={d.id} />
        </section>
      ))}
      <h2>Audit log</h2>
      <div className="table-wrap">
        <table>
          <caption className="sr-only">Latest audit events</caption>
          <thead>
            <tr>
              <th>When (UTC)</th>
              <th>Action</th>
              <th>Endpoint</th>
              <th>Actor</th>
              <th>Reason</th>
            </tr>
          </thead>
          <tbody>
            {audit.map((a) => (
              <tr key={a.id}>
                <td>{a.at.toISOString().slice(0, 19).replace('T', ' ')}</td>
                <td>{a.action}</td>
                <td>{a.endpointId ?? '–'}</td>
                <td>{a.actorUserId ?? 'CLI'}</td>
                <td>{a.reason ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
