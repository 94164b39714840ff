/**
 * Worker-thread entry of lib/probe/prompt-builder: builds prompts (lib/probe/workloads buildPrompt)
 * off the probe worker's event loop. A ~100k-token prompt takes 60–400 ms of CPU to build; on the
 * main thread that would stall the event loop under every other probe in flight and get them
 * flagged `event_loop_stall` (kept, not ranked).
 */
import { parentPort } from 'node:worker_threads';
import { buildPrompt } from './workloads';

parentPort?.on('message', (m: { id: number; workload: Parameters<typeof buildPrompt>[0]; slotKey: string; options: { fidelity?: boolean } }) => {
  try {
    parentPort!.postMessage({ id: m.id, result: buildPrompt(m.workload, m.slotKey, m.options) });
  } catch (e) {
    parentPort!.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) });
  }
});
