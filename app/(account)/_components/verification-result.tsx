import type { VerificationView } from '@/app/api/_lib/verification';

/** The fields of a verification probe's result that the pages show (the API's view of it). */
export type VerificationLike = VerificationView;

const n = (v: number | null, digits = 0) =>
  v === null || !Number.isFinite(v) ? '–' : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Shows a verification probe's result: TTFT, output speed, tokens, or the failure kind and message. */
export function VerificationResult({ v, heading = 'Verification probe' }: { v: VerificationLike | null; heading?: string }) {
  if (!v) return <p className="muted">No verification probe yet.</p>;
  return (
    <section className="card" aria-label={heading} data-verification={v.outcome}>
      <h3>
        {heading}: {v.outcome === 'success' ? <span className="badge-ok">passed</span> : <span className="badge-bad">failed ({v.errorKind})</span>}
      </h3>
      <dl className="meta">
        <dt>TTFT</dt>
        <dd data-metric="verification-ttft">{n(v.ttftMs)} ms</dd>
        <dt>Output speed</dt>
        <dd data-metric="verification-tps">{n(v.outputTokensPerSecond)} tokens/s</dd>
        <dt>Output tokens</dt>
        <dd>{n(v.outputTokens)}</dd>
        <dt>End to end</dt>
        <dd>{n(v.e2eMs)} ms</dd>
        {v.httpStatus !== null ? (
          <>
            <dt>HTTP status</dt>
            <dd>{v.httpStatus}</dd>
          </>
        ) : null}
        {v.errorMessage ? (
          <>
            <dt>Error</dt>
            <dd data-metric="verification-error">{v.errorMessage}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
