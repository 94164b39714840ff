/**
 * `tokenpace reference-server --port P --tps R --ttft-ms T [--tokens-per-chunk K]
 *  [--output-tokens N] [--capacity-tps C] [--host H]`: runs the calibration reference server
 * (lib/reference-server) until SIGINT/SIGTERM, printing its base URL.
 */
import { parseArgs } from 'node:util';
import { startReferenceServer, type ReferenceServerOptions } from '@/lib/reference-server/reference-server';
import { UsageError } from './usage-error';

export const REFERENCE_SERVER_USAGE =
  'usage: tokenpace reference-server --port P --tps R --ttft-ms T [--tokens-per-chunk K] [--output-tokens N] [--capacity-tps C] [--host H]';

/**
 * Parses the command's flags into server options. Throws UsageError with a message naming the
 * flag for unknown flags, missing required flags and out-of-range values.
 */
export function parseReferenceServerArgs(argv: string[]): ReferenceServerOptions {
  let values: Record<string, string | boolean | undefined>;
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
    const ok = typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(n) && (!opts.integer || Number.isInteger(n)) && n >= opts.min && (opts.max === undefined || n <= opts.max);
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
  const host = typeof values.host === 'string' ? values.host : undefined;
  if (host !== undefined && host.trim() === '') throw new UsageError('--host must not be empty');
  return { port, tps, ttftMs, tokensPerChunk, outputTokens, host, ...(capacityTps !== undefined ? { capacityTps } : {}) };
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
  const options = parseReferenceServerArgs(argv);
  const server = await startReferenceServer(options);
  const print = deps.print ?? ((line: string) => console.log(line));
  print(
    `reference server listening on ${server.url} (POST /chat/completions): ${options.tps} tokens/s after the first chunk, ` +
      `TTFT ${options.ttftMs} ms, ${options.tokensPerChunk ?? 1} token(s)/chunk, ${options.outputTokens ?? 256} tokens` +
      (options.capacityTps !== undefined ? `, capacity ${options.capacityTps} tokens/s shared: each new stream gets min(${options.tps}, ${options.capacityTps} ÷ open streams)` : ''),
  );
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
  await waitForStop();
  await server.close();
}
