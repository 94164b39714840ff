/**
 * `npx tsx bench/prompt-overlap.ts`: how much two probes of the same slot share (decision 174). For
 * each 1k workload, 10 pairs of prompts keyed like two probes of one slot (same slot, different
 * secret bits): the longest run of o200k tokens both contain anywhere, and the longest shared
 * prefix (what a prefix cache could reuse). Prints one line per workload.
 */
import { buildPrompt, getWorkloadOrThrow } from '@/lib/probe/workloads';
import { encodeO200k } from '@/lib/tokens/o200k';

/** Longest common run of tokens of `a` and `b` (dynamic programming, O(|a|·|b|)). */
function longestSharedRun(a: number[], b: number[]): number {
  let best = 0;
  let prev = new Uint16Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const cur = new Uint16Array(b.length + 1);
    for (let j = 1; j <= b.length; j++) if (a[i - 1] === b[j - 1]) best = Math.max(best, (cur[j] = prev[j - 1]! + 1));
    prev = cur;
  }
  return best;
}

const PAIRS = 10;
for (const slug of ['prose-1k', 'code-1k', 'math-1k', 'json-1k']) {
  let run = 0;
  let prefix = 0;
  for (let k = 0; k < PAIRS; k++) {
    const a = encodeO200k(buildPrompt(getWorkloadOrThrow(slug), `2026-12-01T12:00:00.000Z\u0000a${k}`).prompt);
    const b = encodeO200k(buildPrompt(getWorkloadOrThrow(slug), `2026-12-01T12:00:00.000Z\u0000b${k}`).prompt);
    run = Math.max(run, longestSharedRun(a, b));
    prefix = Math.max(
      prefix,
      a.findIndex((t, i) => t !== b[i]),
    );
  }
  console.log(`${slug}: longest shared run ${run} o200k tokens, longest shared prefix ${prefix} tokens (${PAIRS} pairs)`);
}
