import { boundWord, fmt } from './format';
import { DataTable } from './data-table';

export interface ClaimItem {
  id: number;
  subject: string;
  provider: string;
  metric: string;
  value: number;
  unit: string;
  bound: string;
  measuredBy: string | null;
  claimDate: string;
  sourceTitle: string | null;
  sourcePublisher: string | null;
  sourceUrl: string | null;
  note: string | null;
}

/** Claims as claims: value with its bound, who measured it, and the source. Never merged with measurements. */
export function ClaimsList({ items, heading = 'Published claims (not our measurements)' }: { items: ClaimItem[]; heading?: string }) {
  return (
    <section className="card" aria-label={heading}>
      <h2 style={{ marginTop: 0 }} className="claim">
        {heading}
      </h2>
      {items.length === 0 ? (
        <p>No claims recorded.</p>
      ) : (
        <DataTable label={`${heading} (table)`} table="claims" columns={['Subject', { num: 'Claimed' }, 'Metric', 'Measured by', 'Date', 'Source']}>
          {items.map((c) => (
            <tr key={c.id} data-claim={c.provider}>
              <td>{c.subject}</td>
              <td className="num claim">
                {boundWord(c.bound)}
                {fmt(c.value, c.value % 1 === 0 ? 0 : 2)} {c.unit}
              </td>
              <td>{c.metric}</td>
              <td>{c.measuredBy ?? '–'}</td>
              <td>{c.claimDate}</td>
              <td>
                {c.sourceUrl ? (
                  <a href={c.sourceUrl} rel="noopener noreferrer">
                    {c.sourcePublisher ?? c.sourceTitle}
                  </a>
                ) : (
                  (c.sourcePublisher ?? c.sourceTitle)
                )}
                {c.note ? <span className="muted"> ({c.note})</span> : null}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
