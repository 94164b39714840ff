'use client';

/** Error boundary: a plain message, never a stack trace. */
export default function ErrorPage({ reset }: { error: Error; reset: () => void }) {
  return (
    <>
      <h1>Something went wrong</h1>
      <p>The page could not be loaded. The data may be temporarily unavailable.</p>
      <button type="button" onClick={() => reset()}>Try again</button>
    </>
  );
}
