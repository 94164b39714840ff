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
 * Why an endpoint has no data, in words: waiting for its API key variable, paused, or simply not
 * probed yet in this range.
 */
export function EndpointStatusHint({ status, apiKeyEnv }: { status: string; apiKeyEnv: string | null }) {
  if (status === 'inactive') {
    return (
      <>
        <p>Not measured on this site yet: no API key for this endpoint is configured here, so it is not probed. Its figures appear within minutes of its first probes.</p>
        {/* Visitors read the sentence above; the setting is for whoever runs this installation (issue #23 item 12). */}
        <details className="small muted">
          <summary>For the operator of this site</summary>
          Set <code>{apiKeyEnv ?? 'the provider API key variable'}</code> in the environment and restart <code>npx tokenpace start</code>; probes then run every minute.
        </details>
      </>
    );
  }
  if (status === 'paused') return <p>This endpoint is paused: it is not probed now. Earlier measurements stay visible in longer ranges.</p>;
  return <p>No probes in this range yet. Probes run every minute; try a longer range or come back in a few minutes.</p>;
}
