/**
 * `tokenpace reference-server --port P --tps R --ttft-ms T [--tokens-per-chunk K]
 *  [--output-tokens N] [--capacity-tps C] [--service-tier NAME=TPS[,SHARE@SLOW_TPS]]...
 *  [--prefix-cache-hit-ttft-ms MS [--cache-ttl-s S]] [--host H]`: runs the calibration reference server
 * (a prefix cache whose hits answer after MS and whose blocks live S seconds after their last use:
 * decisions 260, 267, 268)
 * (lib/reference-server) until SIGINT/SIGTERM, printing its base URL.
 * `tokenpace reference-server --gaming --port P [--host H]`: runs the gaming server instead
 * (lib/reference-server/gaming-server.ts, decision 176): every trick of issue 20, chosen by the
 * request's model id.
 */
import { parseArgs } from 'node:util';
import { startReferenceServer, type ReferenceServerOptions, type ServiceTierOptions } from '@/lib/reference-server/reference-server';
import { GAMING_TRICKS, startGamingServer } from '@/lib/reference-server/gaming-server';
import { UsageError } from './usage-error';
import { raiseProbePriority } from '@/lib/probe/probe-priority';

export const REFERENCE_SERVER_USAGE =
  'usage: tokenpace reference-server --port P --tps R --ttft-ms T [--tokens-per-chunk K] [--output-tokens N] [--capacity-tps C]\n' +
  '                                  [--service-tier NAME=TPS[,SHARE@SLOW_TPS]]... [--prefix-cache-hit-ttft-ms MS [--cache-ttl-s S]] [--host H]\n' +
  '       tokenpace reference-server --gaming --port P [--host H]';

/** `--gaming --port P [--host H]` → the gaming server's options; UsageError naming the flag otherwise. */
export function parseGamingServerArgs(argv: string[]): { port: number; host?: string } {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { gaming: { type: 'boolean' }, port: { type: 'string' }, host: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${REFERENCE_SERVER_USAGE}`);
  }
  const raw = values.port;
  const port = Number(raw);
  if (typeof raw !== 'string' || raw.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be an integer 0-65535, got ${JSON.stringify(raw ?? null)}`);
  const host = typeof values.host === 'string' ? values.host : undefined;
  if (host !== undefined && host.trim() === '') throw new UsageError('--host must not be empty');
  return { port, ...(host !== undefined ? { host } : {}) };
}

/**
 * Parses the command's flags into server options. Throws UsageError with a message naming the
 * flag for unknown flags, missing required flags and out-of-range values.
 */
export function parseReferenceServerArgs(argv: string[]): ReferenceServerOptions {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        tps: { type: 'string' },
        'ttft-ms': { type: 'string' },
        'tokens-per-chunk': { type: 'string' },
        'output-tokens': { type: 'string' },
        'capacity-tps': { type: 'string' },
        'service-tier': { type: 'string', multiple: true },
        'prefix-cache-hit-ttft-ms': { type: 'string' },
        'cache-ttl-s': { type: 'string' },
        host: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${REFERENCE_SERVER_USAGE}`);
  }
  const number = (flag: string, opts: { required: boolean; integer: boolean; min: number; max?: number }) => {
    const raw = values[flag];
    if (raw === undefined) {
      if (opts.required) throw new UsageError(`--${flag} is required\n${REFERENCE_SERVER_USAGE}`);
      return undefined;
    }
    const n = Number(raw);
    const ok =
      typeof raw === 'string' &&
      raw.trim() !== '' &&
      Number.isFinite(n) &&
      (!opts.integer || Number.isInteger(n)) &&
      n >= opts.min &&
      (opts.max === undefined || n <= opts.max);
    if (!ok) {
      const range = opts.max === undefined ? `≥ ${opts.min}` : `${opts.min}-${opts.max}`;
      throw new UsageError(`--${flag} must be ${opts.integer ? 'an integer' : 'a number'} ${range}, got ${JSON.stringify(raw)}`);
    }
    return n;
  };
  const port = number('port', { required: true, integer: true, min: 0, max: 65535 })!;
  const tps = number('tps', { required: true, integer: false, min: Number.MIN_VALUE })!;
  const ttftMs = number('ttft-ms', { required: true, integer: false, min: 0 })!;
  const tokensPerChunk = number('tokens-per-chunk', { required: false, integer: true, min: 1 });
  const outputTokens = number('output-tokens', { required: false, integer: true, min: 1 });
  const capacityTps = number('capacity-tps', { required: false, integer: false, min: Number.MIN_VALUE });
  const hitTtftMs = number('prefix-cache-hit-ttft-ms', { required: false, integer: false, min: 0 });
  const cacheTtlS = number('cache-ttl-s', { required: false, integer: false, min: Number.MIN_VALUE });
  if (cacheTtlS !== undefined && hitTtftMs === undefined)
    throw new UsageError(`--cache-ttl-s needs --prefix-cache-hit-ttft-ms (the cache it limits)\n${REFERENCE_SERVER_USAGE}`);
  const host = typeof values.host === 'string' ? values.host : undefined;
  if (host !== undefined && host.trim() === '') throw new UsageError('--host must not be empty');
  const tierFlags = (values['service-tier'] as string[] | undefined) ?? [];
  const serviceTiers = tierFlags.length > 0 ? Object.fromEntries(tierFlags.map(parseServiceTierFlag)) : undefined;
  return {
    port,
    tps,
    ttftMs,
    tokensPerChunk,
    outputTokens,
    host,
    ...(capacityTps !== undefined ? { capacityTps } : {}),
    ...(serviceTiers ? { serviceTiers } : {}),
    ...(hitTtftMs !== undefined ? { prefixCache: { hitTtftMs, ...(cacheTtlS !== undefined ? { ttlMs: cacheTtlS * 1000 } : {}) } } : {}),
  };
}

/**
 * One `--service-tier NAME=TPS[,SHARE@SLOW_TPS]` (decision 264): requests with `service_tier: NAME`
 * decode at TPS tokens/s, SHARE of them (0..1) at SLOW_TPS instead; e.g. `priority=400,0.25@60`.
 * @throws UsageError naming the flag for a malformed value
 */
export function parseServiceTierFlag(raw: string): [string, ServiceTierOptions] {
  const m = /^([a-z][a-z0-9_-]{0,39})=([0-9.]+)(?:,([0-9.]+)@([0-9.]+))?$/.exec(raw.trim());
  const tps = m ? Number(m[2]) : NaN;
  const slowShare = m?.[3] !== undefined ? Number(m[3]) : 0;
  const slowTps = m?.[4] !== undefined ? Number(m[4]) : undefined;
  if (!m || !(tps > 0) || !(slowShare >= 0 && slowShare <= 1) || (slowTps !== undefined && !(slowTps > 0)))
    throw new UsageError(`--service-tier must be NAME=TPS or NAME=TPS,SHARE@SLOW_TPS (TPS > 0, 0 ≤ SHARE ≤ 1), got ${JSON.stringify(raw)}`);
  return [m[1]!, { tps, ...(slowTps !== undefined ? { slowShare, slowTps } : {}) }];
}

/** Test seams of {@link runReferenceServerCommand}. */
export interface ReferenceServerCommandDeps {
  /** Resolves when the server should stop; default: the first SIGINT or SIGTERM. */
  waitForStop?: () => Promise<void>;
  /** Where the URL line goes; default console.log. */
  print?: (line: string) => void;
}

/**
 * Runs the reference server until stopped. Throws UsageError (exit 2 in the CLI) for bad flags
 * and an Error when the port cannot be bound.
 */
export async function runReferenceServerCommand(argv: string[], deps: ReferenceServerCommandDeps = {}): Promise<void> {
  const print = deps.print ?? ((line: string) => console.log(line));
  const gaming = argv.includes('--gaming');
  const server = gaming ? await startGamingServer(parseGamingServerArgs(argv)) : null;
  if (server) {
    print(`gaming server listening on ${server.url} (POST /chat/completions): the trick is the request's model id, one of ${GAMING_TRICKS.join(', ')}`);
    await waitUntilStopped(deps);
    await server.close();
    return;
  }
  const options = parseReferenceServerArgs(argv);
  // `tokenpace start` asks for a priority above its probe worker's (decision 304); a nice value it
  // cannot get leaves the server as it is and says so.
  const referenceNice = process.env.TOKENPACE_REFERENCE_NICE;
  if (referenceNice !== undefined && referenceNice !== '') {
    const priority = raiseProbePriority(referenceNice);
    if (priority.note) print(`reference server priority: ${priority.note}`);
  }
  const reference = await startReferenceServer(options);
  print(
    `reference server listening on ${reference.url} (POST /chat/completions): ${options.tps} tokens/s after the first chunk, ` +
      `TTFT ${options.ttftMs} ms, ${options.tokensPerChunk ?? 1} token(s)/chunk, ${options.outputTokens ?? 256} tokens` +
      (options.capacityTps !== undefined
        ? `, capacity ${options.capacityTps} tokens/s shared: each new stream gets min(${options.tps}, ${options.capacityTps} ÷ open streams)`
        : '') +
      Object.entries(options.serviceTiers ?? {})
        .map(([name, t]) => `; service_tier ${name}: ${t.tps} tokens/s${t.slowShare ? `, ${t.slowShare} of its streams at ${t.slowTps}` : ''}`)
        .join(''),
  );
  await waitUntilStopped(deps);
  await reference.close();
}

function waitUntilStopped(deps: ReferenceServerCommandDeps): Promise<void> {
  const waitForStop =
    deps.waitForStop ??
    (() =>
      new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve();
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      }));
  return waitForStop();
}
