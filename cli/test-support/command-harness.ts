/**
 * Test seams for the endpoint commands (probe, sweep): captured stdout/stderr (not a terminal), the
 * fetch options each command asked for, environment variables from a plain object, and a signal
 * that never aborts (so no SIGINT handler is installed).
 */
import type { FetchLike } from '@/lib/probe/types';

/** Deps for runProbeCommand/runSweepCommand plus what they wrote and asked for. */
export function commandHarness(makeFetch: (opts: { allowPrivate: boolean }) => FetchLike, env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const fetchCalls: Array<{ allowPrivate: boolean }> = [];
  const deps = {
    createFetch: (opts: { allowPrivate: boolean }): FetchLike => {
      fetchCalls.push(opts);
      return makeFetch(opts);
    },
    lookupEnv: (name: string) => env[name] ?? null,
    stdout: (t: string) => void out.push(t),
    stderr: { write: (t: string) => void err.push(t), isTTY: false },
    signal: new AbortController().signal,
  };
  return { deps, out, err, fetchCalls };
}
