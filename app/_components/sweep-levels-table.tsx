import type { SweepDetailView } from '@/lib/sweep/sweep-schemas';
import { fmt, fmtMs } from './format';

/** The table alternative of a sweep chart: every level's figures. */
export function SweepLevelsTable({ sweep, caption }: { sweep: SweepDetailView; caption: string }) {
  const perGpu = sweep.sweep.gpuCount !== null;
  return (
    // Scrolls inside its own box on a narrow screen; the page never gets wider than the viewport.
    <div className="table-wrap" tabIndex={0} role="region" aria-label={caption}>
      <table className="data-table" data-table={`sweep-${sweep.sweep.id}`}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Concurrency</th>
            <th scope="col">Requests (ok)</th>
            <th scope="col">TPS/user P50 (P5–P95)</th>
            <th scope="col">TTFT P50</th>
            <th scope="col">Aggregate tokens/s</th>
            {perGpu ? <th scope="col">Tokens/s/GPU</th> : null}
            <th scope="col">Goodput req/s</th>
            <th scope="col">Errors</th>
            <th scope="col">Frontier</th>
            <th scope="col">Valid</th>
          </tr>
        </thead>
        <tbody>
          {sweep.levels.map((l) => (
            <tr key={l.levelIndex} data-concurrency={l.concurrency}>
              <th scope="row">{l.concurrency}</th>
              <td>
                {l.requests} ({l.successes})
              </td>
              <td>
                {fmt(l.outputTokensPerSecond?.p50, 1)} ({fmt(l.outputTokensPerSecond?.p5, 1)}–{fmt(l.outputTokensPerSecond?.p95, 1)})
              </td>
              <td>{fmtMs(l.ttftMs?.p50)}</td>
              <td>{fmt(l.aggregateOutputTokensPerSecond, 1)}</td>
              {perGpu ? <td>{fmt(l.aggregateOutputTokensPerSecondPerGpu, 1)}</td> : null}
              <td>{fmt(l.goodputRequestsPerSecond, 2)}</td>
              <td>
                {Object.entries(l.errorKinds)
                  .map(([k, n]) => `${k} ${n}`)
                  .join(', ') || 'none'}
              </td>
              <td>{sweep.frontier.includes(l.levelIndex) ? 'yes' : ''}</td>
              <td>
                {l.valid ? 'yes' : 'no (probe process loaded)'}
                {l.stopReason ? `; stopped: ${l.stopReason}` : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
