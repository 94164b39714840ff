/**
 * Loading placeholder shown while a page's data loads (loading.tsx files): a heading bar, a chart
 * block and table rows, announced once as "Loading…" to screen readers.
 */
export function PageSkeleton({ label = 'Loading…', chart = true, rows = 6 }: { label?: string; chart?: boolean; rows?: number }) {
  return (
    <div role="status" aria-live="polite" data-testid="skeleton">
      <span className="sr-only">{label}</span>
      <div className="skeleton" style={{ width: '55%', height: '2rem' }} aria-hidden="true" />
      <div className="skeleton" style={{ width: '80%', height: '1rem' }} aria-hidden="true" />
      {chart ? <div className="skeleton" style={{ height: 280, marginTop: '1rem' }} aria-hidden="true" /> : null}
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton" style={{ height: '1.6rem' }} aria-hidden="true" />
      ))}
    </div>
  );
}
