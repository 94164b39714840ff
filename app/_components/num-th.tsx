import type { ReactNode } from 'react';

/**
 * The header cell of a numeric column: `<th scope="col" className="num">` (scope for screen
 * readers, `num` right-aligns the column with its figures; app/globals.css). Every table of the
 * site heads its figure columns (TPS/user, TTFT, n, …) with it.
 */
export function NumTh({ children }: { children: ReactNode }) {
  return (
    <th scope="col" className="num">
      {children}
    </th>
  );
}
