import type { ReactNode } from 'react';
import { NumTh } from './num-th';

/** A header cell given as data: a label (`<th scope="col">`), or `{ num }` for a numeric column (NumTh). */
export type DataTableColumn = string | { num: string };

/** DataTable's props (DetailsTable takes the same, with its summary). */
export interface DataTableProps {
  label: string;
  table?: string;
  caption?: ReactNode;
  head?: ReactNode;
  columns?: readonly DataTableColumn[];
  children: ReactNode;
}

/**
 * A data table in a focusable scrolling region: `<div className="table-wrap" tabIndex={0}
 * role="region" aria-label={label}>` (keyboard users can scroll a wide table; WCAG 2.1.1), a table
 * marked `data-table={table}` when given (tests and e2e find tables by it), `caption` for screen
 * readers, and the tbody rows as `children`. The header is `columns` (one plain row of labels, as
 * data) or `head` (the thead's content, for headers with markup). DetailsTable folds one under a
 * chart.
 */
export function DataTable({ label, table, caption, head, columns, children }: DataTableProps) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={label}>
      <table data-table={table}>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead>{columns ? <HeadRow columns={columns} /> : head}</thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** One header row from column data (DataTable `columns`). */
export function HeadRow({ columns }: { columns: readonly DataTableColumn[] }) {
  return (
    <tr>
      {columns.map((c, i) =>
        typeof c === 'string' ? (
          <th key={i} scope="col">
            {c}
          </th>
        ) : (
          <NumTh key={i}>{c.num}</NumTh>
        ),
      )}
    </tr>
  );
}
