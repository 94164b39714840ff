'use client';
import Link from 'next/link';

/**
 * Error boundary: a plain message and a way forward, never a stack trace. The digest (a hash the
 * server logs next to the real error) lets a reader report the problem without seeing internals.
 */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" data-testid="error">
      <h1>This page could not be loaded</h1>
      <p>The data may be temporarily unavailable (for example while the database restarts). Nothing you did caused this.</p>
      <p>
        <button type="button" onClick={() => reset()}>
          Try again
        </button>{' '}
        or go to the <Link href="/">leaderboard</Link>.
      </p>
      {error.digest ? <p className="muted small">Reference for a bug report: {error.digest}</p> : null}
    </div>
  );
}
