/**
 * Worker-thread entry of lib/probe/probe-pool: runs probes on this thread's own event loop with
 * its own SSRF-guarded fetch (functions cannot cross threads, so the fetch is built here from
 * `allowPrivate`). Each probe is wrapped in the one event-loop monitor (lib/probe/loop-delay-monitor)
 * of THIS thread, whose loop is the one that stamped the probe's reads.
 *
 * Messages in: `{ kind: 'probe', id, request, progress }`, `{ kind: 'cancel', id }`.
 * Messages out: `{ kind: 'ready' }` once loaded, `{ kind: 'result', id, result, loop }`,
 * `{ kind: 'progress', id, progress }`, `{ kind: 'error', id, message }` (a defect: probeEndpoint
 * returns failures as results).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createGuardedFetch } from '../security/ssrf-guard';
import { createLoopDelayMonitor } from './loop-delay-monitor';
import { probeEndpoint } from './probe-endpoint';
import type { PlainProbeRequest } from './probe-pool';

const fetch = createGuardedFetch({ allowPrivate: (workerData as { allowPrivate: boolean }).allowPrivate });
const running = new Map<number, AbortController>();

type Inbound = { kind: 'probe'; id: number; request: PlainProbeRequest; progress: boolean } | { kind: 'cancel'; id: number };

parentPort!.on('message', (m: Inbound) => {
  if (m.kind === 'cancel') {
    running.get(m.id)?.abort(new Error('the caller cancelled the probe'));
    return;
  }
  const controller = new AbortController();
  running.set(m.id, controller);
  const monitor = createLoopDelayMonitor();
  probeEndpoint({
    ...m.request,
    fetch,
    signal: controller.signal,
    onProgress: m.progress ? (progress) => parentPort!.postMessage({ kind: 'progress', id: m.id, progress }) : undefined,
  })
    .then(
      (result) => parentPort!.postMessage({ kind: 'result', id: m.id, result, loop: monitor.stop() }),
      (error: unknown) => {
        monitor.stop();
        parentPort!.postMessage({ kind: 'error', id: m.id, message: error instanceof Error ? error.message : String(error) });
      },
    )
    .finally(() => running.delete(m.id));
});

parentPort!.postMessage({ kind: 'ready' });
