/**
 * Response helpers for /api/v1: one error shape `{ error: { code, message, field? } }`, CORS open
 * for reads, ETag + Cache-Control on reads, CSV when asked (`.csv` path or Accept: text/csv).
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { toCsv } from '@/lib/api/csv';
import { isDatabaseUnavailableError } from '@/lib/observability/database-errors';
import { UnknownBoardFieldError } from '@/server/board-subject';
import { SnapshotBudgetError } from '@/server/snapshot-budget';
import { limitPublicRead, RateLimitedError } from './rate-limit';

/** Fixed error codes of the public API. */
export type ApiErrorCode = 'bad_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'rate_limited' | 'internal' | 'unavailable';

const STATUS: Record<ApiErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

type CsvOptions = Parameters<typeof toCsv>[2];

export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-headers': 'content-type, if-none-match, accept',
  'access-control-expose-headers': 'etag, retry-after, tokenpace-signature',
};

/** One field's validation problem (400 answers list every offending field). */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * A JSON error response with the uniform shape `{ error: { code, message, field?, fields? } }`.
 * `fields` lists every offending field of a rejected body; `field` names the first.
 */
export function apiError(code: ApiErrorCode, message: string, field?: string, headers: Record<string, string> = {}, fields?: FieldError[]): Response {
  return Response.json(
    { error: { code, message, ...(field ? { field } : {}), ...(fields && fields.length > 0 ? { fields } : {}) } },
    { status: STATUS[code], headers: { ...CORS_HEADERS, ...headers } },
  );
}

/** Thrown inside handlers to answer with an API error (optionally all field errors and extra headers such as Retry-After). */
export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly field?: string,
    readonly extra: { fields?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
}

/**
 * Parses URL search params with a zod object schema. Throws ApiError('bad_request') naming the
 * first offending field, e.g. `window: must look like 72h or 7d`. Unknown params are rejected too,
 * so a typo never silently falls back to a default.
 */
export function parseQuery<S extends z.ZodObject>(schema: S, params: URLSearchParams): z.infer<S> {
  const raw: Record<string, string> = {};
  for (const [k, v] of params) {
    if (k in raw) throw new ApiError('bad_request', `${k}: given more than once`, k);
    raw[k] = v;
  }
  const known = new Set(Object.keys(schema.shape));
  for (const k of Object.keys(raw)) {
    if (!known.has(k)) throw new ApiError('bad_request', `${k}: unknown parameter (allowed: ${[...known].join(', ')})`, k);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.map(String).join('.') || 'query';
    throw new ApiError('bad_request', `${field}: ${issue.message}`, field);
  }
  return parsed.data;
}

/** Parses a path parameter with a schema, throwing ApiError naming it. */
export function parseParam<S extends z.ZodType>(schema: S, value: unknown, name: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ApiError('bad_request', `${name}: ${parsed.error.issues[0]!.message}`, name);
  return parsed.data;
}

/** True when the client asked for CSV (`.csv` suffix handled by the route, or Accept: text/csv). */
export function wantsCsv(request: Request, format?: string): boolean {
  if (format === 'csv') return true;
  return (request.headers.get('accept') ?? '').split(',')[0]?.trim().startsWith('text/csv') ?? false;
}

function etagOf(body: string | Uint8Array): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/**
 * True when an If-None-Match header value matches `etag` (RFC 9110 §13.1.2: `*`, or any listed tag
 * by weak comparison, so `W/"x"` matches `"x"`).
 */
export function ifNoneMatchHits(header: string | null, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === opaque;
  });
}

/** How long caches may keep a read and serve it stale while revalidating (seconds). */
export interface CachePolicy {
  /** browsers and shared caches: fresh for this long */
  maxAgeSeconds: number;
  /** shared caches (CDN) only; defaults to maxAgeSeconds */
  sMaxAgeSeconds?: number;
  /** serve stale while one request revalidates; defaults to max(maxAge, 60) */
  staleWhileRevalidateSeconds?: number;
  /** never changes (snapshots, sealed boards) */
  immutable?: boolean;
}

/** The Cache-Control value of a public read. */
export function cacheControlOf(p: CachePolicy): string {
  if (p.immutable) return `public, max-age=${p.maxAgeSeconds}, s-maxage=${p.sMaxAgeSeconds ?? p.maxAgeSeconds}, immutable`;
  const swr = p.staleWhileRevalidateSeconds ?? Math.max(p.maxAgeSeconds, 60);
  return `public, max-age=${p.maxAgeSeconds}, s-maxage=${p.sMaxAgeSeconds ?? p.maxAgeSeconds}, stale-while-revalidate=${swr}, stale-if-error=600`;
}

/** Options of {@link readResponse} beyond the body. */
export interface ReadOptions {
  /** a strong ETag already known (e.g. `"<snapshotId>"`, the answer's content hash); else SHA-1 of the body */
  etag?: string;
  /** overrides the Cache-Control built from maxAgeSeconds */
  cache?: CachePolicy;
  /** the Vary header: `Accept` by default (JSON routes answer CSV to Accept: text/csv); null for none */
  vary?: string | null;
  /** more headers (e.g. Tokenpace-Signature), sent on 200 and 304 alike */
  headers?: Record<string, string>;
}

/**
 * THE response of every public GET (JSON or CSV): strong ETag (given or SHA-1 of the bytes),
 * Cache-Control with s-maxage and stale-while-revalidate, Vary only on Accept, CORS; 304 without a
 * body when If-None-Match matches. `body` may be stored bytes, served as they are.
 */
export function readResponse(request: Request, body: string | Uint8Array, contentType: string, maxAgeSeconds = 30, options: ReadOptions = {}): Response {
  const etag = options.etag ?? etagOf(body);
  const headers: Record<string, string> = {
    ...CORS_HEADERS,
    'content-type': contentType,
    etag,
    'cache-control': cacheControlOf(options.cache ?? { maxAgeSeconds }),
    ...options.headers,
  };
  const vary = options.vary === undefined ? 'Accept' : options.vary;
  if (vary) headers.vary = vary;
  if (ifNoneMatchHits(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
  return new Response(body as BodyInit, { status: 200, headers });
}

/** JSON read response. */
export function jsonRead(request: Request, data: unknown, maxAgeSeconds = 30): Response {
  return readResponse(request, JSON.stringify(data), 'application/json; charset=utf-8', maxAgeSeconds);
}

/**
 * CSV read response of a list: one line per row, columns the JSON fields' dotted paths, written by
 * the one flattener (lib/api/csv.ts) from the row's response schema. `context` appends
 * answer-level fields (e.g. asOf, snapshotId) as trailing columns.
 */
export function csvRead(
  request: Request,
  rowSchema: z.ZodType,
  rows: readonly unknown[],
  filename: string,
  options: CsvOptions = {},
  maxAgeSeconds = 30,
): Response {
  const res = readResponse(request, toCsv(rowSchema, rows, options), 'text/csv; charset=utf-8', maxAgeSeconds);
  res.headers.set('content-disposition', `inline; filename="${filename}"`);
  return res;
}

/**
 * The as-of instant of a windowed read: `at` (already parsed: ISO 8601, not before 2000) or `now`,
 * floored to the minute so answers within a minute are identical. Throws 400 naming `at` when it
 * lies in the future (a board that would still change cannot be cited).
 */
export function resolveAsOf(at: string | undefined, now: Date): Date {
  if (at === undefined) return new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const t = Date.parse(at);
  if (t > now.getTime() + 60_000) throw new ApiError('bad_request', 'at: must not be in the future', 'at');
  return new Date(t);
}

/**
 * Wraps a route handler: public reads (GET/HEAD under /api/v1) first pass the per-IP rate limit
 * (429 + Retry-After, see ./rate-limit.ts); ApiError → its JSON error; an unknown board subject →
 * 404 naming the field; the snapshot budget spent (decision 163) → 503 `unavailable` + Retry-After; the database unreachable
 * (Postgres down or restarting) → 503 `unavailable` + Retry-After: 5; anything else → 500
 * `internal` with a generic message (the stack goes to the server log only, never to the client).
 */
export function handle<A extends unknown[]>(fn: (...args: A) => Promise<Response>): (...args: A) => Promise<Response> {
  return async (...args: A) => {
    try {
      const request = args[0];
      if (request instanceof Request && (request.method === 'GET' || request.method === 'HEAD')) await limitPublicRead(request);
      return await fn(...args);
    } catch (err) {
      if (err instanceof ApiError) return apiError(err.code, err.message, err.field, err.extra.headers, err.extra.fields);
      if (err instanceof RateLimitedError) return apiError('rate_limited', err.message, undefined, { 'retry-after': String(err.retryAfterSeconds) });
      if (err instanceof UnknownBoardFieldError) return apiError('not_found', err.unknown.message, err.unknown.field);
      if (err instanceof SnapshotBudgetError) return apiError('unavailable', err.message, undefined, { 'retry-after': String(err.retryAfterSeconds) });
      if (isDatabaseUnavailableError(err)) return apiError('unavailable', 'database unavailable; retry shortly', undefined, { 'retry-after': '5' });
      console.error('[api] unhandled error', err instanceof Error ? (err.stack ?? err.message) : String(err));
      return apiError('internal', 'internal error');
    }
  };
}

/** OPTIONS preflight answer for read routes. */
export function corsPreflight(): Response {
  return new Response(null, { status: 204, headers: CORS_HEADERS });
}
