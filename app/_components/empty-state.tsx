import type { ReactNode } from 'react';

/**
 * An empty state that says why there is nothing and what to do about it (never a blank box).
 * `id` becomes data-empty for tests.
 */
export function EmptyState({ title, children, id, level = 3 }: { title: string; children: ReactNode; id: string; level?: 2 | 3 }) {
  const H = level === 2 ? 'h2' : 'h3';
  return (
    <div className="empty" data-empty={id}>
      <H>{title}</H>
      {children}
    </div>
  );
}

/**
 * Why an endpoint has no data, in words for visitors: not probed on this site (no key configured
 * here), paused, or simply not probed yet in this range. Operator settings (which variable, how to
 * restart) are the README's and `tokenpace`'s business, never a public page's (issue 23 item 12).
 */
export function EndpointStatusHint({ status }: { status: string }) {
  if (status === 'inactive')
    return <p>Not measured on this site yet: this site does not probe this endpoint at the moment. Its figures appear within minutes of its first probes.</p>;
  if (status === 'paused') return <p>This endpoint is paused: it is not probed now. Earlier measurements stay visible in longer ranges.</p>;
  if (status === 'retired') return <p>This endpoint was retired by its provider: it is no longer probed. Its history stays visible in longer ranges.</p>;
  return <p>No probes in this range yet. Probes run every minute; try a longer range or come back in a few minutes.</p>;
}
