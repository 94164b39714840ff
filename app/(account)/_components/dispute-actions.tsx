'use client';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { callApi, errorsByField } from './api-client';
import { FormError } from './form-error';

/**
 * The owner's dispute form for one endpoint (decision 232): a window (from, until in UTC) or one
 * measurement, a reason, evidence and links. Posts to /api/v1/endpoints/{id}/disputes.
 */
export function OpenDisputeForm({ endpointId }: { endpointId: number }) {
  const router = useRouter();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState<number | null>(null);
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const text = (k: string) => String(f.get(k) ?? '').trim();
    const measurementId = text('measurementId');
    const utc = (k: string) => (text(k) ? `${text(k)}:00Z` : undefined);
    const links = text('links').split(/\s+/).filter(Boolean);
    const body = measurementId
      ? {
          scope: 'measurement',
          measurementId: Number(measurementId),
          reason: text('reason'),
          evidence: text('evidence') || undefined,
          links: links.length ? links : undefined,
        }
      : {
          scope: 'window',
          from: utc('from'),
          until: utc('until'),
          reason: text('reason'),
          evidence: text('evidence') || undefined,
          links: links.length ? links : undefined,
        };
    const r = await callApi<{ dispute: { id: number } }>('POST', `/api/v1/endpoints/${endpointId}/disputes`, body);
    if (!r.ok) {
      const errs = errorsByField(r.error.fields);
      setErrors(Object.keys(errs).length ? errs : { form: r.error.message });
      return;
    }
    setErrors({});
    setDone(r.data.dispute.id);
    router.refresh();
  }
  const err = (k: string) =>
    errors[k] ? (
      <p id={`dispute-${k}-error`} className="field-error" role="alert">
        {errors[k]}
      </p>
    ) : null;
  return (
    <form onSubmit={onSubmit} className="account-form" aria-label="Open a dispute" noValidate>
      <p className="small">
        Dispute a window (times in UTC) or one measurement (its id). An admin decides; the dispute and the decision are public on the endpoint page.
      </p>
      <label htmlFor="dispute-from">From (UTC)</label>
      <input id="dispute-from" name="from" type="datetime-local" aria-describedby={errors.from ? 'dispute-from-error' : undefined} />
      {err('from')}
      <label htmlFor="dispute-until">Until (UTC)</label>
      <input id="dispute-until" name="until" type="datetime-local" aria-describedby={errors.until ? 'dispute-until-error' : undefined} />
      {err('until')}
      <label htmlFor="dispute-measurement">Or one measurement id</label>
      <input id="dispute-measurement" name="measurementId" inputMode="numeric" />
      {err('measurementId')}
      <label htmlFor="dispute-reason">Reason</label>
      <textarea id="dispute-reason" name="reason" rows={3} aria-describedby={errors.reason ? 'dispute-reason-error' : undefined} />
      {err('reason')}
      <label htmlFor="dispute-evidence">Evidence (optional)</label>
      <textarea id="dispute-evidence" name="evidence" rows={3} />
      {err('evidence')}
      <label htmlFor="dispute-links">Links to evidence (optional, separated by spaces)</label>
      <input id="dispute-links" name="links" />
      {err('links.0')}
      {err('form')}
      <button type="submit">Open the dispute</button>
      {done ? <p role="status">Dispute {done} is open.</p> : null}
    </form>
  );
}

/** An admin's decision on one open dispute: accept (excluding or not), reject, annotate, with a note. */
export function DecideDispute({ id }: { id: number }) {
  const router = useRouter();
  const [note, setNote] = useState('');
  const [exclude, setExclude] = useState(true);
  const [error, setError] = useState<string | null>(null);
  async function decide(decision: 'accepted' | 'rejected' | 'annotated') {
    const r = await callApi('POST', `/api/v1/disputes/${id}/resolution`, { decision, exclude: decision === 'accepted' ? exclude : undefined, note });
    if (!r.ok) return setError(r.error.fields[0]?.message ?? r.error.message);
    setError(null);
    router.refresh();
  }
  return (
    <div className="actions">
      <label htmlFor={`dispute-note-${id}`}>Decision note for dispute {id}</label>
      <input id={`dispute-note-${id}`} value={note} onChange={(e) => setNote(e.target.value)} />
      <label>
        <input type="checkbox" checked={exclude} onChange={(e) => setExclude(e.target.checked)} /> Exclude from rankings when accepted
      </label>
      <button type="button" onClick={() => decide('accepted')} aria-label={`Accept dispute ${id}`}>
        Accept
      </button>
      <button type="button" onClick={() => decide('rejected')} aria-label={`Reject dispute ${id}`}>
        Reject
      </button>
      <button type="button" onClick={() => decide('annotated')} aria-label={`Annotate dispute ${id}`}>
        Annotate only
      </button>
      <FormError error={error} />
    </div>
  );
}
