/**
 * What the endpoint commands (`probe`, `sweep`) share: flag parsing that turns every mistake into a
 * UsageError naming the flag, the endpoint target flags (<url> --protocol --model --api-key-env),
 * the usage/help/exit-code protocol (2 bad usage, 0 help), reading the API key variable,
 * cancellation by signal, and the stderr status line (redrawn on a terminal, throttled in logs).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { readApiKeyVariable } from '@/lib/env';
import { isProtocol } from '@/lib/probe/adapters/registry';
import { PROTOCOLS, type FetchLike, type ProbeRequest, type Protocol } from '@/lib/probe/types';
import { UsageError } from './usage-error';

/** Where a command writes: stdout text, and stderr with whether it is a terminal. */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: { write: (text: string) => void; isTTY: boolean };
}

/** The command's writers, defaulting to the process's own streams. */
export function commandIo(deps: Partial<CommandIo>): CommandIo {
  return {
    stdout: deps.stdout ?? ((text: string) => void process.stdout.write(text)),
    stderr: deps.stderr ?? { write: (text: string) => void process.stderr.write(text), isTTY: process.stderr.isTTY === true },
  };
}

/** `node:util` parseArgs (strict unless the config says otherwise); its errors (unknown flag, missing value) become UsageError. */
export function parseFlags<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config); // strict by default: unknown flags throw
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Usage lines of the endpoint target flags. */
export const ENDPOINT_TARGET_USAGE = `  --protocol P            ${PROTOCOLS.join(' | ')} (default openai-chat)
  --model M               the API model id (required)
  --api-key-env NAME      read the API key from environment variable NAME`;

/** Dependencies of an endpoint command (the SSRF guard comes from lib/security through createFetch). */
export interface EndpointCommandDeps extends Partial<CommandIo> {
  /** Builds the fetch to use; the CLI passes lib/security's createGuardedFetch. */
  createFetch: (opts: { allowPrivate: boolean }) => FetchLike;
  /** Reads an environment variable; default lib/env readApiKeyVariable. */
  lookupEnv?: (name: string) => string | null;
  /** Cancels the work (recorded as cancelled); default SIGINT/SIGTERM while it runs. */
  signal?: AbortSignal;
}

/** The flag definitions of {@link parseEndpointTarget}, to spread into a command's options. */
export const ENDPOINT_TARGET_FLAGS = {
  protocol: { type: 'string' },
  model: { type: 'string' },
  'api-key-env': { type: 'string' },
} as const;

/** One endpoint to measure, from the positional URL and the target flags. */
export interface EndpointTarget {
  url: string;
  protocol: Protocol;
  model: string;
  /** name of the environment variable holding the API key, or null for none */
  apiKeyEnv: string | null;
}

/**
 * Reads the endpoint target: exactly one positional (`urlName` in messages), `--protocol` (default
 * openai-chat), required `--model`, optional `--api-key-env` naming an upper-case variable.
 * @throws UsageError naming the missing or bad argument
 */
export function parseEndpointTarget(
  values: { protocol?: string; model?: string; 'api-key-env'?: string },
  positionals: string[],
  urlName: string,
): EndpointTarget {
  if (positionals.length !== 1)
    throw new UsageError(positionals.length === 0 ? `missing ${urlName}` : `expected one ${urlName}, got ${positionals.length} arguments`);
  const protocol = values.protocol ?? 'openai-chat';
  if (!isProtocol(protocol)) throw new UsageError(`--protocol must be one of ${PROTOCOLS.join(', ')}; got ${JSON.stringify(protocol)}`);
  if (!values.model) throw new UsageError('--model is required');
  const apiKeyEnv = values['api-key-env'] ?? null;
  if (apiKeyEnv !== null && !/^[A-Z][A-Z0-9_]*$/.test(apiKeyEnv)) {
    throw new UsageError(`--api-key-env must name an environment variable (A-Z, 0-9, _), got ${JSON.stringify(apiKeyEnv)}`);
  }
  return { url: positionals[0]!, protocol, model: values.model, apiKeyEnv };
}

/** The probe request fields an endpoint command's arguments decide (lib/probe ProbeRequest). */
export function endpointRequest(
  args: EndpointTarget & { prompt: string; maxTokens: number },
  apiKey: string | null,
  deadlines: ProbeRequest['deadlines'],
  fetch: FetchLike,
): Pick<ProbeRequest, 'protocol' | 'url' | 'model' | 'apiKey' | 'prompt' | 'maxOutputTokens' | 'deadlines' | 'fetch'> {
  return { protocol: args.protocol, url: args.url, model: args.model, apiKey, prompt: args.prompt, maxOutputTokens: args.maxTokens, deadlines, fetch };
}

/**
 * A numeric flag: `fallback` when absent, else its number when `check` accepts it.
 * @throws UsageError `--flag must be <what>, got "raw"`
 */
export function numberFlag(values: Record<string, unknown>, flag: string, fallback: number, check: (n: number) => boolean, what: string): number {
  const raw = values[flag];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(n) || !check(n))
    throw new UsageError(`--${flag} must be ${what}, got ${JSON.stringify(raw)}`);
  return n;
}

/** Checks for {@link numberFlag}. */
export const isPositive = (n: number) => n > 0;
export const isPositiveInteger = (n: number) => Number.isInteger(n) && n >= 1;

/**
 * Parses argv with `parse`; on a UsageError prints `tokenpace <name>: message` and the usage to
 * stderr and returns 2; with --help prints the usage to stdout and returns 0; else the arguments.
 */
export function parseOrExitCode<A extends { help: boolean }>(
  name: string,
  usage: string,
  parse: (argv: string[]) => A,
  argv: string[],
  io: CommandIo,
): A | number {
  let args: A;
  try {
    args = parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`tokenpace ${name}: ${error.message}\n\n${usage}\n`);
    return 2;
  }
  if (args.help) {
    io.stdout(`${usage}\n`);
    return 0;
  }
  return args;
}

/**
 * The API key from the variable `apiKeyEnv` names (null when none is named). When it is named but
 * unset or empty, prints why and returns exit code 2 instead.
 */
export function readApiKeyOrExitCode(
  name: string,
  apiKeyEnv: string | null,
  lookupEnv: ((variable: string) => string | null) | undefined,
  io: CommandIo,
): { apiKey: string | null } | number {
  if (!apiKeyEnv) return { apiKey: null };
  const apiKey = (lookupEnv ?? readApiKeyVariable)(apiKeyEnv);
  if (!apiKey) {
    io.stderr.write(`tokenpace ${name}: environment variable ${apiKeyEnv} (from --api-key-env) is not set or empty\n`);
    return 2;
  }
  return { apiKey };
}

/**
 * Runs `work` with a signal that aborts when `signal` does, or (without one) on the first SIGINT or
 * SIGTERM while it runs; the listeners are removed afterwards.
 */
export async function withCancellation<T>(signal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  if (signal) signal.addEventListener('abort', onSignal, { once: true });
  else {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }
  try {
    return await work(controller.signal);
  } finally {
    if (signal) signal.removeEventListener('abort', onSignal);
    else {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  }
}

/**
 * A status line on stderr: on a terminal `show` redraws it in place; elsewhere (logs, pipes) it
 * prints a plain line at most every `plainEveryMs` of the caller's clock. `print` writes a lasting
 * line; `clear` erases a drawn status line.
 */
export function createStatusLine(stderr: CommandIo['stderr'], plainEveryMs: number) {
  let drawn = false;
  let lastPlainAt = -Infinity;
  return {
    show(text: string, atMs: number) {
      if (stderr.isTTY) {
        stderr.write(`\r\x1b[K${text}`);
        drawn = true;
      } else if (atMs - lastPlainAt >= plainEveryMs) {
        stderr.write(`${text}\n`);
        lastPlainAt = atMs;
      }
    },
    print(text: string) {
      stderr.write(stderr.isTTY ? `\r\x1b[K${text}\n` : `${text}\n`);
      drawn = false;
    },
    clear() {
      if (drawn) stderr.write('\r\x1b[K');
      drawn = false;
    },
  };
}
