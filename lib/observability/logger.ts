/**
 * Structured JSON logs (pino): one line per event with `level`, `time` (epoch ms), `process`
 * (web | worker | start | reference), `pid`, `hostname`, a message, and fields. Secrets never reach
 * a log line: the redact paths below replace API keys, passwords, tokens, cookies and authorization
 * headers with "[redacted]", and `redactUrl` strips credentials from connection strings.
 */
import pino, { type Logger } from 'pino';

/** Field paths replaced by "[redacted]" wherever they appear (top level or one level down). */
export const REDACT_PATHS: string[] = [
  'apiKey',
  '*.apiKey',
  'apiKeyEncrypted',
  '*.apiKeyEncrypted',
  'password',
  '*.password',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'secretKey',
  '*.secretKey',
  'authorization',
  '*.authorization',
  'cookie',
  '*.cookie',
  'headers.authorization',
  'headers.cookie',
  'headers["x-api-key"]',
  'headers["set-cookie"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'databaseUrl',
  'DATABASE_URL',
  'TOKENPACE_SECRET_KEY',
];

export type { Logger };

/** A JSON logger for one process kind. `level` defaults to info; output goes to stdout. */
export function createLogger(
  processName: 'web' | 'worker' | 'start' | 'reference',
  opts: { level?: string; destination?: NodeJS.WritableStream } = {},
): Logger {
  return pino(
    {
      level: opts.level ?? 'info',
      base: { process: processName, pid: process.pid },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    (opts.destination ?? process.stdout) as pino.DestinationStream,
  );
}

/** `postgres://user:secret@host/db` → `postgres://user:***@host/db` (unparseable input: "[url]"). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '[url]';
  }
}
