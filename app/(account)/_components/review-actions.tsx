'use client';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { callApi } from './api-client';
import { FormError } from './form-error';

/**
 * Approve / reject (with a reason) of one pending endpoint at the revision shown, for admins.
 * `linkProvider`: the submitter's claim to an existing provider is unproven; approving then links
 * it (decision 162), and the button says so.
 */
export function ReviewActions({ id, label, revision, linkProvider = false }: { id: number; label: string; revision: number; linkProvider?: boolean }) {
  const router = useRouter();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  async function decide(decision: 'approve' | 'reject') {
    const r = await callApi('POST', `/api/v1/endpoints/${id}/review`, {
      decision,
      reason: reason || undefined,
      revision,
      ...(decision === 'approve' && linkProvider ? { linkProvider: true } : {}),
    });
    if (!r.ok) return setError(r.error.fields[0]?.message ?? r.error.message);
    setError(null);
    router.refresh();
  }
  return (
    <div className="actions">
      <button type="button" onClick={() => decide('approve')} aria-label={`Approve ${label}`}>
        {linkProvider ? 'Approve and link to the provider' : 'Approve'}
      </button>
      <label htmlFor={`reason-${id}`} className="sr-only">
        Rejection reason for {label}
      </label>
      <input id={`reason-${id}`} value={reason} onChange={(e) => setReason(e.target.value)} placeholder="reason (needed to reject)" />
      <button type="button" onClick={() => decide('reject')} aria-label={`Reject ${label}`}>
        Reject
      </button>
      <FormError error={error} />
    </div>
  );
}
