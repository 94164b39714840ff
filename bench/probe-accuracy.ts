/**
 * bench:probe — how accurate and how cheap the probe is, against the reference server
 * (lib/reference-server), which streams at an exactly known speed and TTFT.
 *
 * 1. Accuracy: for 100, 1,000, 5,000 and 10,000 TPS/user × 1 and 4 tokens per chunk, 20 probes
 *    each, one at a time: measured output speed (Artificial Analysis definition, o200k basis) and
 *    TTFT against the configured values, median and worst of the 20.
 * 2. Capacity: 50, 200 and 500 concurrent streams at 1,000 TPS/user in this one process: speed
 *    error, event-loop delay p99 (perf_hooks.monitorEventLoopDelay) and CPU per million tokens
 *    (process.cpuUsage).
 *
 * The reference servers run in a SEPARATE child process (this file started with `--serve`), so
 * their timers never share the probe's event loop. Run: `npm run bench:probe`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createLoopDelayMonitor } from '../lib/probe/loop-delay-monitor';
import { probeEndpoint } from '../lib/probe/probe-endpoint';
import type { ProbeResult } from '../lib/probe/types';
import { REFERENCE_MODEL_ID, startReferenceServer, type ReferenceServerOptions } from '../lib/reference-server/reference-server';

const TTFT_MS = 100;
const RUNS = 20;
const ACCURACY = [
  { tps: 100, tokens: 64 },
  { tps: 1_000, tokens: 256 },
  { tps: 5_000, tokens: 1_024 },
  { tps: 10_000, tokens: 2_048 },
];
const CHUNK_SIZES = [1, 4];
const CAPACITY = { tps: 1_000, tokens: 1_000, streams: [50, 200, 500], chunkSizes: [1, 4] };

// ---------------- child: reference servers ----------------
async function serve(configs: ReferenceServerOptions[]): Promise<void> {
  const servers = await Promise.all(configs.map((c) => startReferenceServer(c)));
  process.stdout.write(`READY ${JSON.stringify(servers.map((s) => s.url))}\n`);
  // Stay up until the parent closes our stdin (or kills us).
  process.stdin.resume();
  process.stdin.on('end', async () => {
    await Promise.all(servers.map((s) => s.close()));
    process.exit(0);
  });
}

async function startServers(configs: ReferenceServerOptions[]): Promise<{ urls: string[]; child: ChildProcess }> {
  const child = spawn(process.execPath, [...process.execArgv, __filename, '--serve', JSON.stringify(configs)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const urls = await new Promise<string[]>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`reference server child exited with ${code}`)));
    lines.on('line', (line) => {
      if (line.startsWith('READY ')) resolve(JSON.parse(line.slice(6)) as string[]);
    });
  });
  return { urls, child };
}

async function stopServers(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.stdin!.end();
  const timer = setTimeout(() => child.kill('SIGTERM'), 3000);
  await exited;
  clearTimeout(timer);
}

// ---------------- measurement helpers ----------------
const probe = (url: string, maxTokens: number): Promise<ProbeResult> =>
  probeEndpoint({
    protocol: 'openai-chat',
    url,
    model: REFERENCE_MODEL_ID,
    apiKey: null,
    prompt: 'bench',
    maxOutputTokens: maxTokens,
    deadlines: { ttftMs: 30_000, idleMs: 30_000, totalMs: 120_000, maxBytes: 256 * 1024 * 1024 },
    fetch: globalThis.fetch,
  });

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const worst = (xs: number[]) => xs.reduce((w, x) => (Math.abs(x) > Math.abs(w) ? x : w), 0);
const pct = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(2)}%`;
const msf = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(2)} ms`;

function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

// ---------------- parent: the benchmark ----------------
async function main(): Promise<void> {
  console.log(`bench:probe — probe vs reference server (separate process), Node ${process.version}\n`);

  // 1. Accuracy
  const configs: ReferenceServerOptions[] = [];
  for (const a of ACCURACY) for (const k of CHUNK_SIZES) configs.push({ port: 0, tps: a.tps, ttftMs: TTFT_MS, tokensPerChunk: k, outputTokens: a.tokens });
  const accuracy = await startServers(configs);
  const rows: string[][] = [];
  let i = 0;
  for (const a of ACCURACY) {
    for (const k of CHUNK_SIZES) {
      const url = accuracy.urls[i++]!;
      await probe(url, a.tokens); // warm-up: connection, JIT
      const speedErr: number[] = [];
      const ttftErr: number[] = [];
      const loopP99: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const monitor = createLoopDelayMonitor({ resolutionMs: 5 });
        const r = await probe(url, a.tokens);
        loopP99.push(monitor.stop().p99Ms);
        if (r.outcome !== 'success' || r.outputTokensPerSecondO200k === null || r.ttftMs === null) throw new Error(`probe failed: ${r.errorKind} ${r.errorMessage}`);
        if (r.outputTokensO200k !== a.tokens) throw new Error(`token count ${r.outputTokensO200k} != ${a.tokens}`);
        speedErr.push(((r.outputTokensPerSecondO200k - a.tps) / a.tps) * 100);
        ttftErr.push(r.ttftMs - TTFT_MS);
      }
      const measured = median(speedErr.map((e) => a.tps * (1 + e / 100)));
      rows.push([
        String(a.tps),
        String(k),
        String(a.tokens),
        measured.toFixed(1),
        pct(median(speedErr)),
        pct(worst(speedErr)),
        msf(median(ttftErr)),
        msf(worst(ttftErr)),
        `${median(loopP99).toFixed(1)} ms`,
      ]);
    }
  }
  await stopServers(accuracy.child);
  console.log(`Accuracy: ${RUNS} sequential probes per row, configured TTFT ${TTFT_MS} ms; speed = (N − first-chunk tokens) ÷ (last − first chunk time), o200k basis`);
  console.log(
    table(['TPS/user', 'tok/chunk', 'tokens', 'measured tok/s (median)', 'speed err median', 'speed err worst', 'TTFT err median', 'TTFT err worst', 'loop p99 (median)'], rows),
  );

  // 2. Capacity
  console.log(`\nCapacity: concurrent streams in this one probe process, ${CAPACITY.tps} TPS/user configured, ${CAPACITY.tokens} tokens each`);
  const capRows: string[][] = [];
  const capServers = await startServers(CAPACITY.chunkSizes.map((k) => ({ port: 0, tps: CAPACITY.tps, ttftMs: TTFT_MS, tokensPerChunk: k, outputTokens: CAPACITY.tokens })));
  for (const [ki, k] of CAPACITY.chunkSizes.entries()) {
    const url = capServers.urls[ki]!;
    await probe(url, 32);
    for (const n of CAPACITY.streams) {
      const monitor = createLoopDelayMonitor({ resolutionMs: 5 });
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const results = await Promise.all(Array.from({ length: n }, () => probe(url, CAPACITY.tokens)));
      const wallMs = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const loop = monitor.stop();
      const ok = results.filter((r) => r.outcome === 'success' && r.outputTokensPerSecondO200k !== null);
      const tokens = results.reduce((s, r) => s + r.outputTokensO200k, 0);
      const errs = ok.map((r) => ((r.outputTokensPerSecondO200k! - CAPACITY.tps) / CAPACITY.tps) * 100);
      const cpuSec = (cpu.user + cpu.system) / 1e6;
      capRows.push([
        String(n),
        String(k),
        `${ok.length}/${n}`,
        ok.length ? pct(median(errs)) : '—',
        ok.length ? pct(worst(errs)) : '—',
        `${loop.p99Ms.toFixed(1)} ms`,
        `${loop.maxMs.toFixed(1)} ms`,
        `${((tokens / wallMs) * 1000).toFixed(0)}`,
        `${((cpuSec / Math.max(1, tokens)) * 1e6).toFixed(2)} s`,
        loop.valid ? 'yes' : 'NO',
      ]);
    }
  }
  await stopServers(capServers.child);
  console.log(
    table(['streams', 'tok/chunk', 'ok', 'speed err median', 'speed err worst', 'loop p99', 'loop max', 'aggregate tok/s', 'CPU per 1M tokens', `valid (p99 ≤ 20 ms)`], capRows),
  );
  console.log(
    '\nNotes: speed error includes the reference server\'s own scheduling (separate process, same 2-core machine); ' +
      'a row whose aggregate rate the server cannot sustain shows the server falling behind, not the probe.',
  );
}

if (process.argv.includes('--serve')) {
  void serve(JSON.parse(process.argv[process.argv.indexOf('--serve') + 1]!) as ReferenceServerOptions[]);
} else {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
