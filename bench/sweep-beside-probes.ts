/**
 * bench:sweep-beside: what a sweep's threads do to the clock of scheduled probes in the same
 * process (issue 19 #1, decision 166). For each niceness of the sweep's probe threads (0, then
 * SWEEP_THREAD_NICENESS) and each round: 16 streams held open on a one-thread probe pool against a
 * reference server (as a concurrency-16 sweep level does), and meanwhile 4 scheduled-style probes
 * on this thread against 4 other reference servers, with the real stamp-lateness evidence; a
 * baseline round without the pool load first. Prints per row: probes rankable for timing, the
 * worst first-token lateness bound and speed bound, the worst run-queue wait.
 *
 * The reference servers run in a child process (as a provider's server is not on the probe's loop).
 * Figures depend on the machine's load (run it when nothing else runs to see the quiet figures;
 * run it beside other load to see the niceness at work). Usage: npm run bench:sweep-beside [-- rounds]
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createProbePool, SWEEP_THREAD_NICENESS } from '../lib/probe/probe-pool';
import { probeEndpoint } from '../lib/probe/probe-endpoint';
import type { ProbeRequest, ProbeResult } from '../lib/probe/types';
import { startReferenceServer } from '../lib/reference-server/reference-server';
import { createGuardedFetch } from '../lib/security/ssrf-guard';
import { referenceProbeRequest } from './support/reference-probe-request';

const SERVE = process.argv[2] === '--serve';
const ROUNDS = Number(process.argv[2] ?? 3);
const fetch = createGuardedFetch({ allowPrivate: true });
const request = (url: string, maxTokens: number): ProbeRequest => referenceProbeRequest(fetch, url, maxTokens, 64 * 1024 * 1024);

interface Row {
  label: string;
  probes: number;
  rankable: number;
  firstTokenLatenessMs: number;
  speedBoundPct: number;
  runQueueMs: number;
}

function summarise(label: string, results: ProbeResult[]): Row {
  const ev = results.map((r) => r.timingBound?.evidence);
  return {
    label,
    probes: results.length,
    rankable: results.filter((r) => !r.notRankableReasons.includes('timing_uncertain') && r.outcome === 'success').length,
    firstTokenLatenessMs: Math.max(...ev.map((e) => e?.firstTokenLatenessMs ?? Infinity)),
    speedBoundPct: Math.max(...results.map((r) => r.timingBound?.speedPct ?? Infinity)),
    runQueueMs: Math.max(...ev.map((e) => e?.runQueueMs ?? Infinity)),
  };
}

/** Child: the swept server and 4 others; prints `READY [urls]`, stays up until stdin ends. */
async function serve(): Promise<void> {
  const servers = await Promise.all([
    startReferenceServer({ port: 0, tps: 400, ttftMs: 5, outputTokens: 200, tokensPerChunk: 1 }),
    ...[0, 1, 2, 3].map(() => startReferenceServer({ port: 0, tps: 200, ttftMs: 20, outputTokens: 60 })),
  ]);
  process.stdout.write(`READY ${JSON.stringify(servers.map((s) => s.url))}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}

async function main() {
  const child = spawn(process.execPath, [...process.execArgv, __filename, '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const urls = await new Promise<string[]>((resolve) =>
    createInterface({ input: child.stdout! }).on('line', (l) => l.startsWith('READY ') && resolve(JSON.parse(l.slice(6)) as string[])),
  );
  const [sweptUrl, ...otherUrls] = urls as [string, ...string[]];
  const probeOthers = () => Promise.all(otherUrls.map((u) => probeEndpoint(request(u, 60))));
  const rows: Row[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    rows.push(summarise(`round ${round + 1}, no sweep`, await probeOthers()));
    for (const niceness of [0, SWEEP_THREAD_NICENESS]) {
      const pool = createProbePool({ threads: 1, allowPrivate: true, niceness });
      await pool.ready();
      let holding = true;
      const hold = Array.from({ length: 16 }, async () => {
        while (holding) await pool.probe(request(sweptUrl, 200));
      });
      // the 16 streams open and running (a bench may wait on the clock)
      await new Promise((r) => setTimeout(r, 1000));
      const results = await probeOthers();
      holding = false;
      await Promise.all(hold);
      await pool.close();
      rows.push(summarise(`round ${round + 1}, beside 16 streams, sweep threads at nice ${niceness}`, results));
    }
  }
  console.log('probes rankable for timing (of 4) | worst first-token lateness, ms | worst speed bound, % | worst run-queue wait, ms | row');
  for (const r of rows)
    console.log(`${r.rankable}/${r.probes} | ${r.firstTokenLatenessMs.toFixed(1)} | ${r.speedBoundPct.toFixed(2)} | ${r.runQueueMs.toFixed(0)} | ${r.label}`);
  child.stdin!.end();
  await fetch.dispatcher.close();
}

void (SERVE ? serve() : main()).then(
  () => (SERVE ? undefined : process.exit(0)),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
