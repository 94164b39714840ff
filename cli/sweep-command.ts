/**
 * `tokenpace sweep <baseUrl> --model M [--protocol P] [--api-key-env NAME] [--concurrency 1,2,4,...]
 *  [--duration-s S] [--allow-private] [--json]`: a concurrency sweep (lib/sweep) against one
 * endpoint. With --json exactly one JSON object on stdout:
 *   { "levels": [ { "concurrency", "requests", "successes", "outputTokensPerSecond":
 *     { "p5","p25","p50","p75","p95" }, "ttftMs": {...}, "aggregateOutputTokensPerSecond",
 *     "goodputRequestsPerSecond", ... } ], "stopReason", ... }
 * Without it a table on stdout. A progress bar goes to stderr either way.
 * Every stream goes through the SSRF guard: the fetch `createFetch` builds, or with `--threads N`
 * (default above POOL_ABOVE_CONCURRENCY streams) the guarded fetch of each probe thread.
 * Exit codes: 0 when some level had successful streams, 1 when none had, 2 bad usage.
 */
import { createProbePool, defaultProbeThreads, POOL_ABOVE_CONCURRENCY } from '@/lib/probe/probe-pool';
import type { FetchLike, Protocol } from '@/lib/probe/types';
import {
  DEFAULT_CONCURRENCY_LEVELS,
  DEFAULT_MIN_SUCCESS_RATE,
  MAX_SWEEP_CONCURRENCY,
  runSweep,
  type SweepProgress,
  type SweepResult,
} from '@/lib/sweep/run-sweep';
import { DEFAULT_LATENCY_OBJECTIVE } from '@/lib/sweep/summarize-level';
import {
  commandIo,
  createStatusLine,
  endpointRequest,
  ENDPOINT_TARGET_FLAGS,
  ENDPOINT_TARGET_USAGE,
  type EndpointCommandDeps,
  isPositive,
  isPositiveInteger,
  numberFlag,
  parseEndpointTarget,
  parseFlags,
  parseOrExitCode,
  readApiKeyOrExitCode,
  withCancellation,
  type CommandIo,
} from './command-kit';
import { DEFAULT_PROBE_PROMPT } from './probe-command';
import { UsageError } from './usage-error';

export const SWEEP_USAGE = `usage: tokenpace sweep <baseUrl> --model M [options]
${ENDPOINT_TARGET_USAGE}
  --concurrency LIST      levels, comma-separated (default ${DEFAULT_CONCURRENCY_LEVELS.join(',')}; max ${MAX_SWEEP_CONCURRENCY})
  --duration-s S          steady window per level, seconds (default 30)
  --warm-up-s S           minimum warm-up per level, seconds (default 5; each stream also completes one request)
  --max-tokens N          output budget per request (default 256)
  --prompt TEXT           prompt text (default: a short-story request)
  --ttft-slo-ms N         goodput TTFT limit (default ${DEFAULT_LATENCY_OBJECTIVE.ttftMs}, MLPerf v5.0 Llama 2 70B Interactive)
  --tpot-slo-ms N         goodput TPOT limit (default ${DEFAULT_LATENCY_OBJECTIVE.tpotMs}, same source)
  --min-success-rate R    stop when a level's success rate is below R (default ${DEFAULT_MIN_SUCCESS_RATE})
  --threads N             probe threads (0 = all streams on this process's own event loop; default:
                          the machine's cores when a level exceeds ${POOL_ABOVE_CONCURRENCY} streams, else 0)
  --allow-private         allow loopback/private addresses (local servers)
  --json                  print one JSON object on stdout`;

/** Parsed flags of the sweep command. */
export interface ParsedSweepArgs {
  url: string;
  protocol: Protocol;
  model: string;
  apiKeyEnv: string | null;
  concurrencyLevels: number[];
  durationMs: number;
  warmUpMs: number;
  maxTokens: number;
  prompt: string;
  ttftSloMs: number;
  tpotSloMs: number;
  minSuccessRate: number;
  /** probe threads; 0 = in-process (see POOL_ABOVE_CONCURRENCY for the default) */
  threads: number;
  allowPrivate: boolean;
  json: boolean;
  help: boolean;
}

/** Parses argv; throws UsageError whose message names the bad flag. */
export function parseSweepArgs(argv: string[]): ParsedSweepArgs {
  const { values, positionals } = parseFlags({
    args: argv,
    allowPositionals: true,
    options: {
      ...ENDPOINT_TARGET_FLAGS,
      concurrency: { type: 'string' },
      'duration-s': { type: 'string' },
      'warm-up-s': { type: 'string' },
      'max-tokens': { type: 'string' },
      prompt: { type: 'string' },
      'ttft-slo-ms': { type: 'string' },
      'tpot-slo-ms': { type: 'string' },
      'min-success-rate': { type: 'string' },
      threads: { type: 'string' },
      'allow-private': { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { help: true } as ParsedSweepArgs;
  const target = parseEndpointTarget(values, positionals, '<baseUrl>');
  const num = (flag: string, fallback: number, check: (n: number) => boolean, what: string) => numberFlag(values, flag, fallback, check, what);
  let concurrencyLevels: number[] = [...DEFAULT_CONCURRENCY_LEVELS];
  if (values.concurrency !== undefined) {
    concurrencyLevels = values.concurrency.split(',').map((part) => Number(part.trim()));
    const bad = values.concurrency.split(',').find((part) => {
      const n = Number(part.trim());
      return part.trim() === '' || !Number.isInteger(n) || n < 1 || n > MAX_SWEEP_CONCURRENCY;
    });
    if (bad !== undefined)
      throw new UsageError(`--concurrency must be a comma-separated list of integers 1-${MAX_SWEEP_CONCURRENCY}, got ${JSON.stringify(values.concurrency)}`);
  }
  if (values.prompt !== undefined && values.prompt.trim() === '') throw new UsageError('--prompt must not be empty');
  return {
    ...target,
    concurrencyLevels,
    durationMs: num('duration-s', 30, isPositive, 'a positive number of seconds') * 1000,
    warmUpMs: num('warm-up-s', 5, (n) => n >= 0, 'a non-negative number of seconds') * 1000,
    maxTokens: num('max-tokens', 256, isPositiveInteger, 'a positive integer'),
    prompt: values.prompt ?? DEFAULT_PROBE_PROMPT,
    ttftSloMs: num('ttft-slo-ms', DEFAULT_LATENCY_OBJECTIVE.ttftMs, isPositive, 'a positive number'),
    tpotSloMs: num('tpot-slo-ms', DEFAULT_LATENCY_OBJECTIVE.tpotMs, isPositive, 'a positive number'),
    minSuccessRate: num('min-success-rate', DEFAULT_MIN_SUCCESS_RATE, (n) => n >= 0 && n <= 1, 'a number in [0, 1]'),
    threads: num('threads', defaultProbeThreads(concurrencyLevels), (n) => Number.isInteger(n) && n >= 0 && n <= 64, 'an integer 0-64'),
    allowPrivate: values['allow-private'] === true,
    json: values.json === true,
    help: false,
  };
}

/** Dependencies of the sweep command (see {@link EndpointCommandDeps}). */
export type SweepCommandDeps = EndpointCommandDeps;

/** Runs the command; returns the exit code. Never throws for endpoint failures or bad usage. */
export async function runSweepCommand(argv: string[], deps: SweepCommandDeps): Promise<number> {
  const io = commandIo(deps);
  const args = parseOrExitCode('sweep', SWEEP_USAGE, parseSweepArgs, argv, io);
  if (typeof args === 'number') return args;
  const key = readApiKeyOrExitCode('sweep', args.apiKeyEnv, deps.lookupEnv, io);
  if (typeof key === 'number') return key;
  const { apiKey } = key;
  const fetch = deps.createFetch({ allowPrivate: args.allowPrivate });
  // A pool's threads build their own guarded fetch with the same allowPrivate (lib/probe/probe-pool).
  const pool = args.threads > 0 ? createProbePool({ threads: args.threads, allowPrivate: args.allowPrivate }) : null;
  const progress = createProgressBar(io.stderr);
  let result: SweepResult;
  try {
    await pool?.ready();
    result = await withCancellation(deps.signal, (signal) =>
      runSweep({
        request: endpointRequest(args, apiKey, { ttftMs: 60_000, idleMs: 30_000, totalMs: 300_000, maxBytes: 16 * 1024 * 1024 }, fetch),
        concurrencyLevels: args.concurrencyLevels,
        durationMs: args.durationMs,
        warmUpMs: args.warmUpMs,
        objective: { ttftMs: args.ttftSloMs, tpotMs: args.tpotSloMs },
        minSuccessRate: args.minSuccessRate,
        ...(pool ? { probe: pool.probe } : {}),
        signal,
        onProgress: progress.update,
      }),
    );
  } finally {
    progress.clear();
    await pool?.close();
    const closable = fetch as FetchLike & { dispatcher?: { close(): Promise<void> } };
    await closable.dispatcher?.close().catch(() => {});
  }
  if (args.json) io.stdout(`${JSON.stringify(toSweepJson(args, result))}\n`);
  else io.stdout(formatSweepTable(args, result));
  return result.levels.some((l) => l.successes > 0) ? 0 : 1;
}

/** The --json object: the issue's shape (levels[] with the named fields) plus context. */
export function toSweepJson(args: Pick<ParsedSweepArgs, 'url' | 'protocol' | 'model'>, r: SweepResult) {
  return {
    url: args.url,
    protocol: args.protocol,
    model: args.model,
    durationMs: r.durationMs,
    warmUpMs: r.warmUpMs,
    objective: r.objective,
    minSuccessRate: r.minSuccessRate,
    stopReason: r.stopReason,
    stoppedAtConcurrency: r.stoppedAtConcurrency,
    levels: r.levels.map((l) => ({
      concurrency: l.concurrency,
      requests: l.requests,
      successes: l.successes,
      errorKinds: l.errorKinds,
      outputTokensPerSecond: l.outputTokensPerSecond,
      outputTokensPerSecondPerUser: l.outputTokensPerSecond, // alias (decision 280)
      ttftMs: l.ttftMs,
      tpotMs: l.tpotMs,
      aggregateOutputTokensPerSecond: l.aggregateOutputTokensPerSecond,
      goodputRequestsPerSecond: l.goodputRequestsPerSecond,
      completedRequestsPerSecond: l.completedRequestsPerSecond,
      valid: l.valid,
      loopDelayP99Ms: l.loopDelayP99Ms,
      timingUncertainStreams: l.timingUncertainStreams,
      stopReason: l.stopReason,
    })),
  };
}

const fmt = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? '—' : v.toFixed(digits));

/** The readable table. */
export function formatSweepTable(args: Pick<ParsedSweepArgs, 'url' | 'protocol' | 'model'>, r: SweepResult): string {
  const lines = [
    `sweep ${args.protocol} ${args.url} model ${args.model}: ${r.durationMs / 1000} s per level, goodput objective TTFT ≤ ${r.objective.ttftMs} ms, TPOT ≤ ${r.objective.tpotMs} ms`,
  ];
  const head = ['N', 'requests', 'ok', 'TPS/user p50', 'p5–p95', 'TTFT p50 ms', 'aggregate tok/s', 'goodput req/s', 'loop p99 ms', 'valid'];
  const rows = r.levels.map((l) => [
    String(l.concurrency),
    String(l.requests),
    String(l.successes),
    fmt(l.outputTokensPerSecond?.p50),
    l.outputTokensPerSecond ? `${fmt(l.outputTokensPerSecond.p5)}–${fmt(l.outputTokensPerSecond.p95)}` : '—',
    fmt(l.ttftMs?.p50),
    fmt(l.aggregateOutputTokensPerSecond),
    fmt(l.goodputRequestsPerSecond, 2),
    fmt(l.loopDelayP99Ms),
    l.valid ? 'yes' : 'NO',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padStart(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  lines.push(line(head));
  for (const row of rows) lines.push(line(row));
  for (const l of r.levels) {
    const kinds = Object.entries(l.errorKinds);
    if (kinds.length) lines.push(`N=${l.concurrency} errors: ${kinds.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  }
  lines.push(r.stopReason ? `stopped at N=${r.stoppedAtConcurrency}: ${describeStop(r.stopReason)}` : 'all levels ran');
  return `${lines.join('\n')}\n`;
}

function describeStop(reason: NonNullable<SweepResult['stopReason']>): string {
  switch (reason) {
    case 'rate_limited':
      return 'the endpoint answered HTTP 429 (rate limited)';
    case 'low_success_rate':
      return 'the success rate fell below the floor';
    case 'invalid_measurements':
      return 'the probing process was too loaded for valid timing';
    case 'cancelled':
      return 'cancelled';
    case 'blocked':
      return 'the SSRF guard refused the address';
    case 'consecutive_failures':
      return 'too many requests failed in a row';
    case 'error_rate':
      return 'the share of failed requests rose above the bound';
    case 'request_budget':
      return "the sweep's request budget was used up";
  }
}

/** Progress bar on stderr: level k/n, N, share of the level's planned time, measured streams. */
function createProgressBar(stderr: CommandIo['stderr']) {
  const status = createStatusLine(stderr, 2000);
  let levelLabel = '';
  return {
    update: (p: SweepProgress) => {
      if (p.kind === 'level-started') levelLabel = `level ${p.levelIndex + 1}/${p.levelCount} N=${p.concurrency}`;
      if (p.kind === 'level-finished') {
        const l = p.level;
        status.print(
          `${levelLabel}: ${l.requests} requests, TPS/user p50 ${fmt(l.outputTokensPerSecond?.p50)}, aggregate ${fmt(l.aggregateOutputTokensPerSecond)} tok/s${l.stopReason ? `, stop: ${l.stopReason}` : ''}`,
        );
        return;
      }
      if (p.kind !== 'stream-finished') return;
      const share = Math.max(0, Math.min(1, p.elapsedMs / p.plannedMs));
      const width = 24;
      const filled = Math.round(share * width);
      status.show(`${levelLabel} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.round(share * 100)}% ${p.measuredDone} measured`, p.elapsedMs);
    },
    clear: status.clear,
  };
}
