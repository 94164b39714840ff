import { DISCLOSURE_FIELD_LABELS, DISCLOSURE_FIELDS, type DisclosureField, type DisclosureValues } from '@/lib/catalog/disclosure';
import type { DisclosureRevision } from '@/db/queries/disclosure-revisions';
import type { HistoryChangePoint } from '@/db/queries/history';
import { fmtUtc } from './format';
import { DataTable } from './data-table';

const SOURCE_LABELS: Record<DisclosureRevision['source'], string> = {
  catalog: 'catalog',
  submission: 'owner (submission)',
  owner_edit: 'owner (edit)',
  admin: 'admin',
  backfill: 'first record',
};

/** One declared value in words ("–" when undeclared). */
function valueText(field: DisclosureField, v: DisclosureValues[DisclosureField]): string {
  if (v === null || v === undefined) return '–';
  if (field === 'contextWindowTokens') return `${Number(v).toLocaleString('en-US')} tokens`;
  return String(v);
}

/** The anchor of a revision's row on the endpoint page (change points link to it). */
export const revisionAnchor = (number: number) => `revision-${number}`;

/** A change point with the declared change (revision ≥ 2) near it, if any (decision 178). */
export interface ChangeWithRevision {
  changePoint: HistoryChangePoint;
  revision: DisclosureRevision | null;
}

/**
 * The endpoint's disclosure revisions, newest first (decision 178): when each took effect, who
 * changed it and what, with the values; and the change points of its history next to the revision
 * near each, linked to its row.
 */
export function RevisionHistory({ revisions, changes }: { revisions: DisclosureRevision[]; changes: ChangeWithRevision[] }) {
  return (
    <section className="card" aria-labelledby="revisions-heading" data-testid="revisions">
      <h2 id="revisions-heading">Disclosure history</h2>
      <p className="small muted">
        Every change of the declared metadata is a dated revision; each measurement names the revision in force when it was stored (
        <code>disclosureRevisionId</code>, <a href={revisions[0] ? `/api/v1/endpoints/${revisions[0].endpointId}/revisions` : '/api-docs'}>revisions as JSON</a>
        ). Declared, not verified.
      </p>
      {changes.length > 0 ? (
        <ul className="small" aria-label="Change points of the daily median speed" data-list="change-points">
          {changes.map(({ changePoint: cp, revision: r }) => (
            <li key={cp.day} data-change-point={cp.day} data-revision={r?.number ?? ''}>
              Speed changed {cp.label}
              {r ? (
                <>
                  {' '}
                  — near <a href={`#${revisionAnchor(r.number)}`}>revision {r.number}</a> (
                  {r.changedFields.map((f) => DISCLOSURE_FIELD_LABELS[f].toLowerCase()).join(', ')} changed {r.effectiveFrom.slice(0, 10)})
                </>
              ) : (
                ' — no declared change within 3 days'
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {revisions.length > 0 ? (
        <DataTable
          label="Disclosure revisions (table)"
          table="revisions"
          caption={'Revisions of the declared metadata, newest first'}
          columns={[{ num: 'Revision' }, 'In force from', 'Changed by', 'Changed', 'Values']}
        >
          {revisions.map((r) => (
            <tr key={r.id} id={revisionAnchor(r.number)} data-revision={r.number}>
              <td className="num">{r.number}</td>
              <td>{fmtUtc(r.effectiveFrom)}</td>
              <td>{SOURCE_LABELS[r.source]}</td>
              <td data-changed={r.changedFields.join(' ')}>
                {r.number === 1 ? 'first record' : r.changedFields.map((f) => DISCLOSURE_FIELD_LABELS[f]).join(', ')}
              </td>
              <td className="small">
                {DISCLOSURE_FIELDS.filter((f) => r.values[f] !== null).map((f) => (
                  <span key={f} className={r.changedFields.includes(f) && r.number > 1 ? 'strong' : undefined}>
                    {DISCLOSURE_FIELD_LABELS[f]}: {valueText(f, r.values[f])};{' '}
                  </span>
                ))}
              </td>
            </tr>
          ))}
        </DataTable>
      ) : (
        <p className="small muted">No revision recorded yet.</p>
      )}
    </section>
  );
}
