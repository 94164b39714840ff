import { getEndpointUptime, type EndpointUptime } from '@/db/queries/uptime';
import { getDb } from '@/server/shared';
import { UPTIME_WINDOWS } from '@/lib/stats/uptime';
import { fmtPct, fmtUtc } from './format';

/**
 * Uptime of one endpoint (server component): success share over 5m, 30m, 1d and 7d with n
 * (lib/stats/uptime.ts, the same numbers as GET /api/v1/endpoints/{id}/uptime) and a strip of the
 * most recent probes, oldest left, newest right; each square names its time and outcome for
 * screen readers and on hover.
 */
export async function EndpointUptimePanel({ endpointId }: { endpointId: number }) {
  const uptime = await getEndpointUptime(getDb(), { endpointId, now: new Date() });
  return <UptimeStrip endpointId={endpointId} uptime={uptime} />;
}

/** Renders an already loaded uptime (also usable in tests and other pages). */
export function UptimeStrip({ endpointId, uptime }: { endpointId: number; uptime: EndpointUptime }) {
  const strip = [...uptime.recent].reverse();
  return (
    <section className="card" aria-labelledby="uptime-heading" data-testid="endpoint-uptime">
      <h2 id="uptime-heading">Uptime</h2>
      <dl className="meta">
        {UPTIME_WINDOWS.map((w) => {
          const win = uptime.windows[w.key];
          return (
            <div key={w.key} style={{ display: 'contents' }}>
              <dt>Last {w.key}</dt>
              <dd data-metric={`uptime-${w.key}`}>
                <strong>{fmtPct(win.successFraction, 1)}</strong> <span className="muted small">of {win.n} probes</span>
              </dd>
            </div>
          );
        })}
      </dl>
      {strip.length > 0 ? (
        <ol
          aria-label={`Last ${strip.length} probes, oldest first`}
          style={{ display: 'flex', gap: 2, listStyle: 'none', padding: 0, margin: '0.5rem 0 0', flexWrap: 'wrap' }}
        >
          {strip.map((p) => {
            const label = `${fmtUtc(p.measuredAt)} (${p.region}): ${p.outcome === 'success' ? 'success' : `failed, ${p.errorKind ?? 'error'}`}`;
            return (
              <li
                key={`${p.measuredAt}-${p.region}`}
                title={label}
                data-outcome={p.outcome}
                style={{ width: 8, height: 20, borderRadius: 2, background: p.outcome === 'success' ? 'var(--ok, #2e9d5b)' : 'var(--bad, #d64545)' }}
              >
                <span className="sr-only">{label}</span>
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="muted small">No probes yet.</p>
      )}
      <p className="muted small">
        Share of successful probes (all workloads and regions; probes cancelled by Tokenpace itself are not counted).{' '}
        <a href={`/api/v1/endpoints/${endpointId}/uptime`}>As JSON</a>
      </p>
    </section>
  );
}
