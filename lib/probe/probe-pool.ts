/**
 * A pool of probe threads (decision 150): spreads concurrent streams over several event loops, so
 * that one loop never has to stamp the reads of hundreds of streams while it also parses them.
 * Used by sweeps (lib/sweep through the CLI and the sweep task) and `npm run bench:probe`; a
 * scheduled probe (one stream per endpoint) needs none.
 *
 * Every thread builds its own SSRF-guarded fetch (lib/security/ssrf-guard) with the pool's
 * `allowPrivate`; the `fetch` of a request given to {@link ProbePool.probe} is therefore ignored,
 * and so is a `recorder` (recording a stream is a single-probe CLI feature). Each result carries
 * the event-loop delay summary of the thread that ran it over the probe's span, so a stream's
 * validity is judged by the loop that actually stamped its reads.
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { LoopDelaySummary } from './loop-delay-monitor';
import type { ProbeRequest, ProbeResult } from './types';

/**
 * Above this many concurrent streams, sweeps (CLI and worker) run on a pool by default. A
 * conservative choice, not a measured limit: in the final bench:probe run one loop held 256 × 4
 * tokens per chunk valid too (decision 150); the pool keeps a large sweep off a loop that also
 * times other probes.
 */
export const POOL_ABOVE_CONCURRENCY = 16;

/**
 * The default probe threads for a sweep with these concurrency levels: the machine's available
 * parallelism when any level exceeds POOL_ABOVE_CONCURRENCY, else 0 (all streams in-process).
 */
export function defaultProbeThreads(concurrencyLevels: readonly number[]): number {
  return Math.max(...concurrencyLevels) > POOL_ABOVE_CONCURRENCY ? Math.max(1, availableParallelism()) : 0;
}

/** The part of a ProbeRequest that crosses a thread boundary (plain data only). */
export type PlainProbeRequest = Omit<ProbeRequest, 'fetch' | 'signal' | 'onProgress' | 'recorder'>;

/** A pooled probe's result: the ProbeResult plus the loop delay of the thread that ran it. */
export interface PooledProbeResult extends ProbeResult {
  loopDelay: LoopDelaySummary;
  /** index of the thread that ran it (0-based) */
  threadIndex: number;
}

/** A running pool; `close()` ends its threads (probes still running are cancelled). */
export interface ProbePool {
  readonly threads: number;
  /** Resolves once every thread has loaded (optional: probes wait for their thread anyway). */
  ready(): Promise<void>;
  /** Runs one probe on the least-busy thread. Rejects only if the thread fails (a defect). */
  probe(req: ProbeRequest): Promise<PooledProbeResult>;
  close(): Promise<void>;
}

/** Options of {@link createProbePool}. */
export interface ProbePoolOptions {
  /** Threads (integer ≥ 1); default: the machine's available parallelism. */
  threads?: number;
  /** Allow loopback/private addresses (local servers); passed to each thread's guarded fetch. */
  allowPrivate: boolean;
  /** The thread's entry file (tests: a thread that crashes); default ./probe-pool-thread.cjs. */
  threadFile?: string;
  /**
   * Scheduling niceness of the pool's threads (0–19, default 0), set by each thread for itself
   * before it loads anything (Linux: niceness is per thread, so the creating thread keeps its own).
   * Sweeps use {@link SWEEP_THREAD_NICENESS}: under CPU contention the probe loop of the same
   * process runs first (issue 19, decision 166).
   */
  niceness?: number;
}

/**
 * Niceness of a sweep's probe threads: the Linux CFS weight of nice 10 is 110 against 1024 at nice
 * 0, so a thread at nice 0 (the probe loop that stamps scheduled probes) gets ~90 % of a contended
 * core. On an idle core the niceness changes nothing.
 */
export const SWEEP_THREAD_NICENESS = 10;

interface Pending {
  resolve: (r: PooledProbeResult) => void;
  reject: (e: Error) => void;
  onProgress: ProbeRequest['onProgress'];
  threadIndex: number;
  detach: () => void;
}

interface Slot {
  worker: Worker;
  inFlight: number;
  ready: Promise<void>;
  /** false once the thread failed or exited: it gets no more probes (a message to it would never be answered) */
  alive: boolean;
}

/** Starts `threads` probe threads. Throws RangeError for a bad thread count. */
export function createProbePool(options: ProbePoolOptions): ProbePool {
  const threads = options.threads ?? Math.max(1, availableParallelism());
  if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`threads must be an integer ≥ 1, got ${threads}`);
  const pending = new Map<number, Pending>();
  let seq = 0;
  let closed = false;

  const failAll = (threadIndex: number, reason: string) => {
    for (const [id, p] of pending) {
      if (p.threadIndex !== threadIndex) continue;
      pending.delete(id);
      p.detach();
      p.reject(new Error(`probe thread ${threadIndex} failed: ${reason}`));
    }
  };

  const slots: Slot[] = Array.from({ length: threads }, (_, threadIndex) => {
    const file = options.threadFile ?? path.join(path.dirname(__filename), 'probe-pool-thread.cjs');
    const worker = new Worker(file, { workerData: { allowPrivate: options.allowPrivate, niceness: options.niceness ?? 0 } });
    const slot: Slot = { worker, inFlight: 0, ready: Promise.resolve(), alive: true };
    slot.ready = new Promise<void>((resolve, reject) => {
      worker.on(
        'message',
        (m: {
          kind: string;
          id?: number;
          result?: ProbeResult;
          loop?: LoopDelaySummary;
          message?: string;
          progress?: Parameters<NonNullable<ProbeRequest['onProgress']>>[0];
        }) => {
          if (m.kind === 'ready') return resolve();
          const p = pending.get(m.id!);
          if (!p) return;
          if (m.kind === 'progress') return p.onProgress?.(m.progress!);
          pending.delete(m.id!);
          slot.inFlight--;
          p.detach();
          if (m.kind === 'result') p.resolve({ ...m.result!, loopDelay: m.loop!, threadIndex });
          else p.reject(new Error(m.message ?? 'probe thread error'));
        },
      );
      worker.on('error', (e) => {
        slot.alive = false;
        reject(e);
        failAll(threadIndex, e.message);
      });
      worker.on('exit', (code) => {
        slot.alive = false;
        reject(new Error(`probe thread ${threadIndex} exited with code ${code} before it was ready`));
        if (!closed) failAll(threadIndex, `exited with code ${code}`);
      });
    });
    slot.ready.catch(() => {});
    return slot;
  });

  return {
    threads,
    ready: async () => {
      await Promise.all(slots.map((s) => s.ready));
    },
    probe(req) {
      if (closed) return Promise.reject(new Error('the probe pool is closed'));
      // The least busy live thread; a dead one would take the probe and never answer.
      let threadIndex = -1;
      for (let i = 0; i < slots.length; i++) {
        if (slots[i]!.alive && (threadIndex < 0 || slots[i]!.inFlight < slots[threadIndex]!.inFlight)) threadIndex = i;
      }
      if (threadIndex < 0) return Promise.reject(new Error('every probe thread of the pool has failed'));
      const slot = slots[threadIndex]!;
      const id = ++seq;
      const { fetch, signal, onProgress, recorder, ...plain } = req;
      return new Promise<PooledProbeResult>((resolve, reject) => {
        const onAbort = () => slot.worker.postMessage({ kind: 'cancel', id });
        signal?.addEventListener('abort', onAbort, { once: true });
        pending.set(id, { resolve, reject, onProgress, threadIndex, detach: () => signal?.removeEventListener('abort', onAbort) });
        slot.inFlight++;
        try {
          slot.worker.postMessage({ kind: 'probe', id, request: plain, progress: onProgress !== undefined });
        } catch (error) {
          // Not plain data (DataCloneError): nothing was sent, so nothing will answer.
          pending.delete(id);
          slot.inFlight--;
          signal?.removeEventListener('abort', onAbort);
          reject(error as Error);
          return;
        }
        if (signal?.aborted) onAbort();
      });
    },
    async close() {
      closed = true;
      for (const [id, p] of pending) {
        pending.delete(id);
        p.detach();
        p.reject(new Error('the probe pool was closed'));
      }
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
