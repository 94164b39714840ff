/**
 * Builds probe prompts on a worker thread, so the CPU of building (and o200k-measuring) a long
 * prompt never stalls the event loop that times other probes. Same result as
 * lib/probe/workloads buildPrompt, byte for byte (it is the same function, run elsewhere).
 * Falls back to building on the calling thread when the thread cannot start (logged once by the
 * caller through `onFallback`), so a probe is never lost to this optimisation.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { buildPrompt, type BuiltPrompt } from './workloads';

/** A prompt builder; `close()` stops its thread. */
export interface PromptBuilder {
  build(workload: Parameters<typeof buildPrompt>[0], slotKey: string, options?: { fidelity?: boolean }): Promise<BuiltPrompt>;
  close(): Promise<void>;
}

/**
 * Starts a builder with one worker thread (started lazily on the first build). The thread runs
 * the TypeScript source through tsx, registered in the thread by prompt-builder-thread.cjs.
 * @param onFallback called once if the thread fails; builds then run on the calling thread
 */
export function createPromptBuilder(onFallback: (reason: string) => void = () => {}): PromptBuilder {
  let worker: Worker | null = null;
  let failed = false;
  let seq = 0;
  const pending = new Map<
    number,
    { resolve: (p: BuiltPrompt) => void; reject: (e: Error) => void; args: [Parameters<typeof buildPrompt>[0], string, { fidelity?: boolean }] }
  >();

  const fail = (reason: string) => {
    if (failed) return;
    failed = true;
    onFallback(reason);
    // Whatever was in flight is built here instead.
    for (const [id, p] of pending) {
      pending.delete(id);
      try {
        p.resolve(buildPrompt(...p.args));
      } catch (e) {
        p.reject(e as Error);
      }
    }
    void worker?.terminate();
    worker = null;
  };

  const start = (): Worker | null => {
    if (worker || failed) return worker;
    try {
      const w = new Worker(path.join(__dirname, 'prompt-builder-thread.cjs'));
      w.unref();
      w.on('message', (m: { id: number; result?: BuiltPrompt; error?: string }) => {
        const p = pending.get(m.id);
        if (!p) return;
        pending.delete(m.id);
        if (m.error !== undefined) p.reject(new Error(m.error));
        else p.resolve(m.result!);
      });
      w.on('error', (e) => fail(e.message));
      w.on('exit', (code) => {
        if (code !== 0 && !failed) fail(`prompt thread exited with code ${code}`);
        worker = null;
      });
      worker = w;
    } catch (e) {
      fail(e instanceof Error ? e.message : String(e));
    }
    return worker;
  };

  return {
    build(workload, slotKey, options = {}) {
      const w = start();
      if (!w) return Promise.resolve(buildPrompt(workload, slotKey, options));
      const id = ++seq;
      // Only plain data crosses the thread boundary.
      const plain = { slug: workload.slug, category: workload.category, inputTokensTarget: workload.inputTokensTarget };
      return new Promise<BuiltPrompt>((resolve, reject) => {
        pending.set(id, { resolve, reject, args: [plain, slotKey, options] });
        w.postMessage({ id, workload: plain, slotKey, options });
      });
    },
    async close() {
      const w = worker;
      worker = null;
      failed = true;
      if (w) await w.terminate();
    },
  };
}
