/**
 * Request bodies of the mutating API: JSON only (Content-Type application/json, at most 64 KiB),
 * parsed with a zod schema; a rejected body answers 400 `bad_request` naming the first field in
 * `field` and every field in `fields`. Cookie-authenticated writes must come from our own origin.
 */
import type { z } from 'zod';
import { fieldIssues } from '@/lib/api/submission-schemas';
import { getEnv } from '@/lib/env';
import { ApiError } from './respond';

const MAX_BODY_BYTES = 64 * 1024;

/** Reads and validates a JSON body; throws ApiError 400 naming the fields. */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new ApiError('bad_request', 'body: send JSON with Content-Type: application/json', 'body');
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw new ApiError('bad_request', `body: at most ${MAX_BODY_BYTES} bytes`, 'body');
  let text: string;
  try {
    const buf = await request.arrayBuffer();
    if (buf.byteLength > MAX_BODY_BYTES) throw new ApiError('bad_request', `body: at most ${MAX_BODY_BYTES} bytes`, 'body');
    text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw new ApiError('bad_request', 'body: not valid UTF-8', 'body');
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ApiError('bad_request', 'body: not valid JSON', 'body');
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ApiError('bad_request', 'body: must be a JSON object', 'body');
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const fields = fieldIssues(parsed.error);
    const first = fields[0] ?? { field: 'body', message: 'invalid' };
    throw new ApiError('bad_request', fields.map((f) => `${f.field}: ${f.message}`).join('; '), first.field, { fields });
  }
  return parsed.data;
}

/**
 * Refuses a cookie-authenticated write whose Origin is another site (defence in depth beside
 * SameSite=Lax cookies and the JSON content type). Requests with no Origin (CLI, API tokens) pass.
 */
export function assertSameOrigin(request: Request): void {
  const origin = request.headers.get('origin');
  if (!origin || request.headers.get('authorization')) return;
  const allowed = new Set<string>();
  try {
    allowed.add(new URL(request.url).origin);
  } catch {
    // no usable request URL: only the configured origin is allowed
  }
  const env = getEnv();
  allowed.add(env.TOKENPACE_PUBLIC_URL ? new URL(env.TOKENPACE_PUBLIC_URL).origin : `http://localhost:${env.PORT}`);
  if (!allowed.has(origin)) throw new ApiError('forbidden', 'cross-site request refused');
}

/** JSON response for private (per-account) data: never cached, no CORS. */
export function privateJson(data: unknown, status = 200): Response {
  return Response.json(data, { status, headers: { 'cache-control': 'private, no-store' } });
}
