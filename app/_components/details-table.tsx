import type { ReactNode } from 'react';

/**
 * A data table folded under a chart: `<details>` with a summary, a focusable scrolling region
 * labelled `label`, and a table marked `data-table={table}` (tests and e2e find tables by it).
 * `head` is the thead's content, `children` the tbody rows; `caption` is for screen readers.
 */
export function DetailsTable({ summary, label, table, caption, head, children }: {
  summary: ReactNode;
  label: string;
  table: string;
  caption?: ReactNode;
  head: ReactNode;
  children: ReactNode;
}) {
  return (
    <details>
      <summary>{summary}</summary>
      <div className="table-wrap" tabIndex={0} role="region" aria-label={label}>
        <table data-table={table}>
          {caption ? <caption className="sr-only">{caption}</caption> : null}
          <thead>{head}</thead>
          <tbody>{children}</tbody>
        </table>
      </div>
    </details>
  );
}
