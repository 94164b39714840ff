import type { ReactNode } from 'react';
import { DataTable, type DataTableProps } from './data-table';

/**
 * A data table folded under a chart: `<details>` with a summary, a focusable scrolling region
 * labelled `label`, and a table marked `data-table={table}` (tests and e2e find tables by it).
 * The header is `columns` (labels as data) or `head` (the thead's content); `children` the tbody
 * rows; `caption` is for screen readers (DataTable).
 */
export function DetailsTable({ summary, ...table }: DataTableProps & { summary: ReactNode; table: string }) {
  return (
    <details>
      <summary>{summary}</summary>
      <DataTable {...table} />
    </details>
  );
}
