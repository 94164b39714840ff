import { afterAll, expect, it } from 'vitest';
import { createPromptBuilder } from './prompt-builder';
import { buildPrompt, getWorkloadOrThrow } from './workloads';

const fallbacks: string[] = [];
const builder = createPromptBuilder((r) => fallbacks.push(r));
afterAll(() => builder.close());

it('builds the same prompts as buildPrompt, on a thread, without blocking this event loop', async () => {
  const w = getWorkloadOrThrow('prose-100k');
  let ticks = 0;
  const timer = setInterval(() => (ticks += 1), 5);
  const t0 = performance.now();
  const [a, b] = await Promise.all([builder.build(w, 'slot-1', { fidelity: true }), builder.build(getWorkloadOrThrow('json-1k'), 'slot-1')]);
  const elapsed = performance.now() - t0;
  clearInterval(timer);
  expect(fallbacks, fallbacks.join('; ')).toEqual([]);
  expect(a).toEqual(buildPrompt(w, 'slot-1', { fidelity: true }));
  expect(b).toEqual(buildPrompt(getWorkloadOrThrow('json-1k'), 'slot-1'));
  // the 5 ms timer kept firing while the thread built (a blocked loop would fire it about once)
  expect(ticks).toBeGreaterThan(Math.min(10, elapsed / 5 / 4));
});
