import { encodeO200k } from '@/lib/tokens/o200k';

/**
 * Longest run of o200k tokens that `a` and `b` share anywhere (dynamic programming over the two
 * token lists, O(|a|·|b|) time, O(|b|) memory). Tests use it to show two probes' prompts share no
 * long predictable part (decisions 173, 174).
 */
export function longestSharedRun(a: string, b: string): number {
  const x = encodeO200k(a);
  const y = encodeO200k(b);
  let best = 0;
  let prev = new Uint16Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    const cur = new Uint16Array(y.length + 1);
    for (let j = 1; j <= y.length; j++) {
      if (x[i - 1] === y[j - 1]) best = Math.max(best, (cur[j] = prev[j - 1]! + 1));
    }
    prev = cur;
  }
  return best;
}
