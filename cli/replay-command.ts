/**
 * `tokenpace replay FILE [--expect] [--json] [--timeline]`: replays a stream case file (the
 * shared cases format, or one written by `tokenpace probe --record`) from a local HTTP server on
 * 127.0.0.1 at its recorded times, through the same probe as a live measurement, and prints the
 * result like `tokenpace probe`. With --expect the result is compared with the file's `expect`
 * block (times within its tolerance_ms) and every difference is printed.
 * Exit codes: 0 (with --expect: no difference), 1 (a difference, or without --expect a failed
 * probe), 2 bad usage or an invalid file.
 */
import { parseArgs } from 'node:util';
import { loadCaseFile, type ReplayCase } from '@/lib/probe/replay/case-file';
import { compareWithExpect } from '@/lib/probe/replay/compare-with-expect';
import { replayCaseThroughProbe } from '@/lib/probe/replay/replay-probe';
import { warmUpProbeCore } from '@/lib/probe/warm-up';
import { formatSummary } from './probe-command';

export const REPLAY_USAGE = `usage: tokenpace replay FILE [options]
  --expect                compare with the file's expect block; exit 1 on any difference
  --json                  print one JSON object on stdout (with --expect: also "differences")
  --timeline              include the per-event timeline`;

/** Output writers (tests pass their own). */
export interface ReplayCommandDeps {
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
}

/** Runs the command; returns the exit code. Never throws for bad files or failed streams. */
export async function runReplayCommand(argv: string[], deps: ReplayCommandDeps = {}): Promise<number> {
  const stdout = deps.stdout ?? ((t: string) => void process.stdout.write(t));
  const stderr = deps.stderr ?? ((t: string) => void process.stderr.write(t));
  let values: { expect?: boolean; json?: boolean; timeline?: boolean; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { expect: { type: 'boolean' }, json: { type: 'boolean' }, timeline: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    stderr(`tokenpace replay: ${(error as Error).message}\n\n${REPLAY_USAGE}\n`);
    return 2;
  }
  if (values.help) {
    stdout(`${REPLAY_USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1) {
    stderr(`tokenpace replay: ${positionals.length === 0 ? 'missing FILE' : 'expected one FILE'}\n\n${REPLAY_USAGE}\n`);
    return 2;
  }
  let replayCase: ReplayCase;
  try {
    replayCase = loadCaseFile(positionals[0]!);
  } catch (error) {
    stderr(`tokenpace replay: ${(error as Error).message}\n`);
    return 2;
  }
  // Cold code (the first fetch, parse and HTTP round of a fresh process) would delay the replay
  // server's clock by tens of ms: warm up like the cases test, with one untimed round of the case.
  await warmUpProbeCore();
  await replayCaseThroughProbe({ ...replayCase, writes: replayCase.writes.map((w) => ({ ...w, at_ms: 0 })), end: 'close' });
  const { result } = await replayCaseThroughProbe(replayCase);
  const differences = values.expect ? compareWithExpect(result, replayCase) : [];
  if (values.json) {
    const { timeline, ...rest } = result;
    const out = {
      case: replayCase.id,
      protocol: replayCase.protocol,
      ...rest,
      ...(values.timeline ? { timeline } : {}),
      ...(values.expect ? { differences } : {}),
    };
    stdout(`${JSON.stringify(out)}\n`);
  } else {
    stdout(
      formatSummary(
        { url: positionals[0]!, protocol: replayCase.protocol, model: String(replayCase.request.model ?? ''), timeline: values.timeline === true },
        result,
      ),
    );
    if (values.expect) {
      if (differences.length === 0) stdout(`expect        matches ${replayCase.id} (times within ${replayCase.tolerance_ms} ms)\n`);
      for (const d of differences) stdout(`DIFFERENT     ${d.field}: expected ${JSON.stringify(d.expected)}, got ${JSON.stringify(d.actual)}\n`);
    }
  }
  if (values.expect) return differences.length === 0 ? 0 : 1;
  return result.outcome === 'success' ? 0 : 1;
}
