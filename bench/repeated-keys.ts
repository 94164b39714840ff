/**
 * The cost of the repeated-key scan (decision 318) on a long stream: 20,000 Chat chunks of the
 * shape real servers send (one word per delta, a usage chunk at the end), scanned as the SSE
 * decoder does, against JSON.parse of the same events. Prints ms per stream and ns per event.
 * Run: `npx tsx bench/repeated-keys.ts`.
 */
import { findRepeatedKey } from '../lib/probe/adapters/repeated-keys';

const EVENTS = 20_000;
const ROUNDS = 15;
const events = Array.from({ length: EVENTS }, (_, i) =>
  JSON.stringify({
    id: 'chatcmpl-8f2c1a',
    object: 'chat.completion.chunk',
    created: 1764500000,
    model: 'meta-llama/Llama-3.3-70B-Instruct',
    system_fingerprint: 'fp_44709d6fcb',
    choices: [{ index: 0, delta: { content: ` word${i}` }, logprobs: null, finish_reason: null }],
  }),
);
events.push(
  JSON.stringify({
    choices: [],
    usage: { prompt_tokens: 12, completion_tokens: EVENTS, total_tokens: EVENTS + 12, prompt_tokens_details: { cached_tokens: 0 } },
  }),
);
const bytes = events.reduce((n, e) => n + e.length, 0);

function timeMs(f: () => void): number {
  const times: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    f();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(ROUNDS / 2)]!;
}

let found = 0;
const scan = timeMs(() => {
  for (const e of events) if (findRepeatedKey(e) !== null) found++;
});
const parse = timeMs(() => {
  for (const e of events) JSON.parse(e);
});
if (found !== 0) throw new Error('an honest stream repeated a key');
console.log(
  `${events.length} events, ${(bytes / 1e6).toFixed(2)} MB: scan ${scan.toFixed(1)} ms (${((scan * 1e6) / events.length).toFixed(0)} ns/event), ` +
    `JSON.parse ${parse.toFixed(1)} ms (${((parse * 1e6) / events.length).toFixed(0)} ns/event); scan/parse ${(scan / parse).toFixed(2)}`,
);
