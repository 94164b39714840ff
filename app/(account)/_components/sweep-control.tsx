'use client';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { callApi } from './api-client';
import { FormError } from './form-error';

interface LevelView {
  concurrency: number;
  requests: number;
  successes: number;
  outputTokensPerSecond: { p50: number } | null;
  aggregateOutputTokensPerSecond: number;
  stopReason: string | null;
}
interface SweepView {
  sweep: {
    id: number;
    status: string;
    currentConcurrency: number | null;
    streamsDone: number;
    concurrencyLevels: number[];
    stopReason: string | null;
    stoppedAtConcurrency: number | null;
  };
  levels: LevelView[];
}

/** Polling interval of the live progress, ms. */
const POLL_MS = 2000;

/**
 * The owner's sweep controls on /dashboard/endpoints/{id}: consent with its limits (highest
 * concurrency, window per level), a button that requests a sweep, and the running sweep's live
 * progress (polls GET /api/v1/sweeps/{id} every 2 s until it ends).
 */
export function SweepControl(props: {
  endpointId: number;
  deploymentKind: string | null;
  settings: { enabled: boolean; maxConcurrency: number; durationS: number };
  defaultLevels: number[];
  latestSweepId: number | null;
  /** Why a sweep cannot be requested now (lib/sweep/sweep-consent's sentence), or null when it can. */
  refusal: string | null;
  warmUpS: number;
  minSuccessRate: number;
}) {
  const router = useRouter();
  const [enabled, setEnabled] = useState(props.settings.enabled);
  const [maxConcurrency, setMaxConcurrency] = useState(props.settings.maxConcurrency);
  const [durationS, setDurationS] = useState(props.settings.durationS);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [sweepId, setSweepId] = useState<number | null>(props.latestSweepId);
  const [live, setLive] = useState<SweepView | null>(null);

  useEffect(() => {
    if (sweepId === null) return;
    let stopped = false;
    const poll = async () => {
      const r = await callApi<SweepView>('GET', `/api/v1/sweeps/${sweepId}`);
      if (stopped) return;
      if (r.ok) setLive(r.data);
      if (!r.ok || r.data.sweep.status === 'queued' || r.data.sweep.status === 'running') timer = setTimeout(poll, POLL_MS);
    };
    let timer = setTimeout(poll, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [sweepId]);

  const levels = props.defaultLevels.filter((n) => n <= maxConcurrency);
  const active = live !== null && (live.sweep.status === 'queued' || live.sweep.status === 'running');

  async function saveSettings(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    setSaved(null);
    const r = await callApi<{ sweepsAllowed: boolean; refusal: string | null }>('POST', `/api/v1/endpoints/${props.endpointId}/sweep-settings`, {
      enabled,
      maxConcurrency,
      durationS,
    });
    if (!r.ok) return setError(r.error.message);
    setSaved(enabled ? (r.data.sweepsAllowed ? 'Consent saved.' : `Consent saved; sweeps cannot run yet: ${r.data.refusal}`) : 'Consent withdrawn.');
    router.refresh();
  }
  async function requestSweep() {
    setError(null);
    const r = await callApi<SweepView>('POST', `/api/v1/endpoints/${props.endpointId}/sweeps`, {});
    if (!r.ok) return setError(r.error.message);
    setSweepId(r.data.sweep.id);
    setLive(r.data);
  }

  return (
    <section aria-labelledby="sweeps-heading">
      <h2 id="sweeps-heading">Concurrency sweeps</h2>
      <p className="small">
        A sweep holds {levels.join(', ') || '1'} concurrent streams in turn, each level for {durationS} s after a warm-up of at least {props.warmUpS} s (every
        stream first completes one request), and publishes TPS/user against aggregate throughput. It stops at the first HTTP 429, after repeated failures
        (backing off between them) or when fewer than {Math.round(props.minSuccessRate * 100)}% of a level’s requests succeed. One sweep at a time; it runs only
        on an approved endpoint, with your consent and an admin’s consent to these limits, and withdrawing consent stops it after the current level.
        {props.deploymentKind === 'shared' ? ' Shared API: set the highest concurrency within your published rate limit.' : ''}
      </p>
      <form onSubmit={saveSettings} className="form" aria-label="Sweep consent and limits">
        <label>
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> I consent to concurrency sweeps of this endpoint
        </label>
        <label>
          Highest concurrency <input type="number" min={1} max={256} value={maxConcurrency} onChange={(e) => setMaxConcurrency(Number(e.target.value))} />
        </label>
        <label>
          Seconds per level <input type="number" min={5} max={300} value={durationS} onChange={(e) => setDurationS(Number(e.target.value))} />
        </label>
        <button type="submit">Save sweep settings</button>
      </form>
      <div className="actions">
        <button
          type="button"
          disabled={props.refusal !== null || active}
          aria-describedby={props.refusal !== null || active ? 'sweep-disabled-reason' : undefined}
          onClick={() => void requestSweep()}
        >
          Request a sweep
        </button>
        {props.refusal !== null || active ? (
          <p id="sweep-disabled-reason" className="small" data-field="sweep-disabled-reason">
            {active ? 'A sweep of this endpoint is running; the next can be requested when it ends.' : `Not available yet: ${props.refusal}.`}
          </p>
        ) : null}
      </div>
      {saved ? <p role="status">{saved}</p> : null}
      <FormError error={error} />
      {live ? (
        <div role="status" aria-live="polite" data-sweep-status={live.sweep.status}>
          <p>
            Sweep {live.sweep.id}: <strong>{live.sweep.status}</strong>
            {live.sweep.status === 'running' && live.sweep.currentConcurrency !== null
              ? ` — level ${live.sweep.currentConcurrency} of ${live.sweep.concurrencyLevels.join(', ')}, ${live.sweep.streamsDone} streams done`
              : ''}
            {live.sweep.stopReason ? ` — stopped at ${live.sweep.stoppedAtConcurrency}: ${live.sweep.stopReason}` : ''}
          </p>
          {live.levels.length ? (
            <table className="data-table">
              <caption>Levels finished so far</caption>
              <thead>
                <tr>
                  <th scope="col">Concurrency</th>
                  <th scope="col">Requests (ok)</th>
                  <th scope="col">TPS/user P50</th>
                  <th scope="col">Aggregate tokens/s</th>
                </tr>
              </thead>
              <tbody>
                {live.levels.map((l) => (
                  <tr key={l.concurrency}>
                    <th scope="row">{l.concurrency}</th>
                    <td>
                      {l.requests} ({l.successes})
                    </td>
                    <td>{l.outputTokensPerSecond ? l.outputTokensPerSecond.p50.toFixed(1) : '–'}</td>
                    <td>{l.aggregateOutputTokensPerSecond.toFixed(1)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
