/**
 * `tokenpace probe <url> [--protocol P] --model M [...]`: one measurement against one endpoint,
 * printed as a readable summary or (with --json) as exactly one JSON object on stdout (with
 * `rankable` and `notRankableReasons`, decision 060). A progress line (tokens so far, live speed)
 * goes to stderr while streaming. `--record FILE` also writes the stream as a replay case
 * (lib/probe/replay/record-case.ts) for a bug report.
 * Exit codes: 0 success, 1 failed probe (any errorKind), 2 bad usage.
 */
import { raiseProbePriority } from '../lib/probe/probe-priority';
import { writeFileSync } from 'node:fs';
import { readApiKeyVariable } from '@/lib/env';
import { probeEndpoint } from '@/lib/probe/probe-endpoint';
import { settleHeap } from '@/lib/probe/settle-heap';
import { warmUpProbeCore, warmUpProbePath } from '@/lib/probe/warm-up';
import { createCaseRecorder } from '@/lib/probe/replay/record-case';
import type { ProbeRequest, ProbeResult, Protocol } from '@/lib/probe/types';
import {
  commandIo,
  createStatusLine,
  endpointRequest,
  ENDPOINT_TARGET_FLAGS,
  ENDPOINT_TARGET_USAGE,
  type EndpointCommandDeps,
  isPositiveInteger,
  numberFlag,
  parseEndpointTarget,
  parseFlags,
  parseOrExitCode,
  readApiKeyOrExitCode,
  withCancellation,
  type CommandIo,
} from './command-kit';
import { UsageError } from './usage-error';

export const PROBE_USAGE = `usage: tokenpace probe <url> --model M [options]
${ENDPOINT_TARGET_USAGE}
  --allow-private         allow loopback/private addresses (local servers)
  --ttft-timeout-ms N     deadline for the first token (default 60000)
  --idle-timeout-ms N     longest gap between tokens (default 30000)
  --total-timeout-ms N    deadline for the whole stream (default 300000)
  --max-tokens N          output budget (default 256)
  --prompt TEXT           prompt text (default: a short-story request)
  --json                  print one JSON object on stdout
  --timeline              include the per-event timeline (with --json, or as a table)
  --record FILE           also write the raw stream (status, headers, timed reads, end) as a replay
                          case file, prompt and secrets redacted; replay it with \`tokenpace replay FILE\``;

/** Default prompt: long enough an answer to measure speed on. */
export const DEFAULT_PROBE_PROMPT = 'Write a short story of about 300 words about a lighthouse keeper who finds a message in a bottle.';

/** Dependencies of the probe command (see {@link EndpointCommandDeps}). */
export type ProbeCommandDeps = EndpointCommandDeps;

interface ParsedProbeArgs {
  url: string;
  protocol: Protocol;
  model: string;
  apiKeyEnv: string | null;
  allowPrivate: boolean;
  ttftMs: number;
  idleMs: number;
  totalMs: number;
  maxTokens: number;
  prompt: string;
  json: boolean;
  timeline: boolean;
  record: string | null;
  help: boolean;
}

/** Parses argv; throws UsageError naming the bad flag. */
export function parseProbeArgs(argv: string[]): ParsedProbeArgs {
  const { values, positionals } = parseFlags({
    args: argv,
    allowPositionals: true,
    options: {
      ...ENDPOINT_TARGET_FLAGS,
      'allow-private': { type: 'boolean' },
      'ttft-timeout-ms': { type: 'string' },
      'idle-timeout-ms': { type: 'string' },
      'total-timeout-ms': { type: 'string' },
      'max-tokens': { type: 'string' },
      prompt: { type: 'string' },
      json: { type: 'boolean' },
      timeline: { type: 'boolean' },
      record: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) return { help: true } as ParsedProbeArgs;
  const target = parseEndpointTarget(values, positionals, '<url>');
  const int = (flag: string, fallback: number) => numberFlag(values, flag, fallback, isPositiveInteger, 'a positive integer');
  if (values.prompt !== undefined && values.prompt.trim() === '') throw new UsageError('--prompt must not be empty');
  if (values.record !== undefined && values.record.trim() === '') throw new UsageError('--record must name a file');
  return {
    ...target,
    allowPrivate: values['allow-private'] === true,
    ttftMs: int('ttft-timeout-ms', 60_000),
    idleMs: int('idle-timeout-ms', 30_000),
    totalMs: int('total-timeout-ms', 300_000),
    maxTokens: int('max-tokens', 256),
    prompt: values.prompt ?? DEFAULT_PROBE_PROMPT,
    json: values.json === true,
    timeline: values.timeline === true,
    record: values.record ?? null,
    help: false,
  };
}

/**
 * Runs the command; returns the exit code (0 success, 1 failed probe, 2 bad usage). Never
 * throws for endpoint failures or bad usage.
 */
export async function runProbeCommand(argv: string[], deps: ProbeCommandDeps): Promise<number> {
  const io = commandIo(deps);
  const lookupEnv = deps.lookupEnv ?? readApiKeyVariable;
  const args = parseOrExitCode('probe', PROBE_USAGE, parseProbeArgs, argv, io);
  if (typeof args === 'number') return args;
  const key = readApiKeyOrExitCode('probe', args.apiKeyEnv, lookupEnv, io);
  if (typeof key === 'number') return key;
  const { apiKey } = key;
  const awsCredentials = args.protocol === 'bedrock-converse-stream' && !apiKey ? readAwsCredentials(lookupEnv) : null;

  const progress = createProgressLine(io.stderr);
  const deadlines = { ttftMs: args.ttftMs, idleMs: args.idleMs, totalMs: args.totalMs, maxBytes: 16 * 1024 * 1024 };
  const recorder = args.record
    ? createCaseRecorder({
        protocol: args.protocol,
        model: args.model,
        url: args.url,
        prompt: args.prompt,
        maxOutputTokens: args.maxTokens,
        secrets: [apiKey, awsCredentials?.secretAccessKey, awsCredentials?.sessionToken],
        deadlines,
      })
    : undefined;
  let result: ProbeResult;
  // The scheduler's priority for the stamping thread (decision 184); the bound still judges the result.
  const priority = raiseProbePriority(process.env.TOKENPACE_PROBE_NICE);
  if (priority.note) io.stderr.write(`tokenpace probe: ${priority.note}\n`);
  // A cold process would otherwise pay for its first request's code paths inside the measurement.
  await warmUpProbeCore(5);
  await warmUpProbePath();
  // ...and whatever loading and warming left on the heap is collected now, not mid-stream (decision 185).
  settleHeap();
  try {
    result = await withCancellation(deps.signal, (signal) =>
      probeEndpoint({
        ...endpointRequest(args, apiKey, deadlines, deps.createFetch({ allowPrivate: args.allowPrivate })),
        signal,
        onProgress: progress.update,
        awsCredentials,
        recorder,
      }),
    );
  } finally {
    progress.clear();
  }
  if (recorder && args.record) {
    writeFileSync(args.record, `${JSON.stringify(recorder.toCase(result), null, 2)}\n`);
    io.stderr.write(`recorded the stream to ${args.record} (replay: tokenpace replay ${args.record} --expect)\n`);
  }
  if (args.json) {
    const { timeline, ...rest } = result;
    const out = { url: args.url, protocol: args.protocol, model: args.model, ...rest, ...(args.timeline ? { timeline } : {}) };
    io.stdout(`${JSON.stringify(out)}\n`);
  } else {
    io.stdout(formatSummary(args, result));
  }
  return result.outcome === 'success' ? 0 : 1;
}

function readAwsCredentials(lookupEnv: (name: string) => string | null): ProbeRequest['awsCredentials'] {
  const accessKeyId = lookupEnv('AWS_ACCESS_KEY_ID');
  const secretAccessKey = lookupEnv('AWS_SECRET_ACCESS_KEY');
  if (!accessKeyId || !secretAccessKey) return null;
  return { accessKeyId, secretAccessKey, sessionToken: lookupEnv('AWS_SESSION_TOKEN'), region: lookupEnv('AWS_REGION') };
}

/** The stderr progress line: tokens so far and live speed since the first token. */
function createProgressLine(stderr: CommandIo['stderr']) {
  let first: { tokens: number; ms: number } | null = null;
  const status = createStatusLine(stderr, 1000);
  return {
    update: (p: { generatedEvents: number; approxTokens: number; elapsedMs: number }) => {
      if (p.generatedEvents === 0) return;
      if (!first) first = { tokens: p.approxTokens, ms: p.elapsedMs };
      const span = (p.elapsedMs - first.ms) / 1000;
      const speed = span > 0 ? `${((p.approxTokens - first.tokens) / span).toFixed(1)} tok/s` : '…';
      status.show(`streaming: ~${p.approxTokens} tokens in ${p.generatedEvents} events, ${speed}, ${(p.elapsedMs / 1000).toFixed(1)} s`, p.elapsedMs);
    },
    clear: status.clear,
  };
}

const ms = (v: number | null) => (v === null ? '—' : `${v.toFixed(1)} ms`);

/** The readable (non-JSON) summary. */
export function formatSummary(args: Pick<ParsedProbeArgs, 'url' | 'protocol' | 'model' | 'timeline'>, r: ProbeResult): string {
  const lines: string[] = [];
  lines.push(`probe ${args.protocol} ${args.url} model ${args.model}`);
  lines.push(
    r.outcome === 'success'
      ? `outcome       success (finish: ${r.finishReason ?? r.finishReasonRaw ?? 'not given'})`
      : `outcome       error: ${r.errorKind}${r.httpStatus !== null ? ` (HTTP ${r.httpStatus})` : ''} – ${r.errorMessage ?? ''}`,
  );
  if (r.retryAfterMs !== null) lines.push(`retry after   ${(r.retryAfterMs / 1000).toFixed(1)} s`);
  lines.push(`TTFB          ${ms(r.ttfbMs)}${r.connectMs !== null ? `   (connect ${ms(r.connectMs)})` : ''}`);
  lines.push(`TTFT          ${ms(r.ttftMs)}   TTFAT ${ms(r.ttfatMs)}`);
  const speed = (v: number | null) => (v === null ? '—' : `${v.toFixed(1)} tok/s`);
  lines.push(
    `output speed  ${speed(r.outputTokensPerSecond)} (${r.outputTokensReported !== null ? 'reported' : 'o200k'} basis; o200k basis ${speed(r.outputTokensPerSecondO200k)})`,
  );
  lines.push(`TPOT          ${r.tpotMs === null ? '—' : `${r.tpotMs.toFixed(2)} ms/token`}`);
  lines.push(`E2E           ${ms(r.e2eMs)}`);
  if (r.timingBound) lines.push(`error bound   ${formatTimingBound(r.timingBound)}`);
  lines.push(`tokens        ${r.outputTokensReported ?? '—'} reported, ${r.outputTokensO200k} o200k, in ${r.contentChunks} events (${r.bytesReceived} bytes)`);
  const flags = [
    r.flags.tokenCountMismatch ? 'token counts disagree >25%' : '',
    r.flags.buffered ? 'buffered (most tokens in the last event)' : '',
    r.flags.unrecognizedShape ? `unrecognized shape at ${(r.evidence.unrecognizedPaths ?? []).join(', ')}` : '',
  ].filter(Boolean);
  lines.push(`flags         ${flags.length ? flags.join('; ') : 'none'}`);
  lines.push(`rankable      ${r.rankable ? 'yes' : `no (${r.notRankableReasons.join(', ')})`}`);
  if (r.reasoningText) lines.push(`reasoning     ${preview(r.reasoningText)}`);
  lines.push(`answer        ${preview(r.answerText)}`);
  for (const call of r.toolCalls) lines.push(`tool call     ${call.name ?? '?'}(${preview(call.arguments)})`);
  if (args.timeline) {
    lines.push('timeline      at_ms     tokens  channel');
    for (const t of r.timeline) lines.push(`              ${t.atMs.toFixed(1).padStart(9)} ${String(t.tokens).padStart(6)}  ${t.channel}`);
  }
  return `${lines.join('\n')}\n`;
}

/** "TTFT +0.4 ms, speed ±0.12 %, E2E +0.3 ms" (decision 180); "unknown" for a bound without evidence. */
function formatTimingBound(b: NonNullable<ProbeResult['timingBound']>): string {
  const part = (name: string, v: number | null, unit: string, sign: string) =>
    `${name} ${v === null ? 'unknown' : `${sign}${v.toFixed(unit === '%' ? 2 : 1)} ${unit}`}`;
  return [part('TTFT', b.ttftMs, 'ms', '+'), part('speed', b.speedPct, '%', '±'), part('E2E', b.e2eMs, 'ms', '+')].join(', ');
}

function preview(text: string): string {
  const flat = JSON.stringify(text);
  return flat.length > 160 ? `${flat.slice(0, 157)}…"` : flat;
}
