/**
 * Request bodies of the mutating API: JSON only (Content-Type application/json, at most 64 KiB,
 * counted while reading),
 * parsed with a zod schema; a rejected body answers 400 `bad_request` naming the first field in
 * `field` and every field in `fields`. Cookie-authenticated writes must come from our own origin.
 */
import type { z } from 'zod';
import { fieldIssues } from '@/lib/api/submission-schemas';
import { trustedOrigins, untrustedOriginMessage } from '@/lib/security/public-origin';
import { ApiError } from './respond';

const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads a request body into memory, refusing it as soon as it passes `maxBytes`: a declared
 * Content-Length above the limit is refused before reading, and a chunked (or lying) body is
 * cancelled at the first chunk that crosses the limit, so a 20 MB body is never held whole.
 * Throws ApiError 400 `body: at most N bytes` (field `body`). An absent body reads as 0 bytes.
 */
export async function readBodyBytes(request: Request, maxBytes: number = MAX_BODY_BYTES): Promise<Uint8Array> {
  const tooLarge = () => new ApiError('bad_request', `body: at most ${maxBytes} bytes`, 'body');
  const declared = request.headers.get('content-length');
  if (declared !== null && !(Number(declared) <= maxBytes)) {
    await request.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** Decodes UTF-8 strictly; throws ApiError 400 `body: not valid UTF-8`. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError('bad_request', 'body: not valid UTF-8', 'body');
  }
}

/** Parses body text as one JSON object; throws ApiError 400 naming `body` for invalid JSON or a non-object. */
export function parseJsonObject(text: string): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ApiError('bad_request', 'body: not valid JSON', 'body');
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ApiError('bad_request', 'body: must be a JSON object', 'body');
  return raw as Record<string, unknown>;
}

/** Reads and validates a JSON body; throws ApiError 400 naming the fields. */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') throw new ApiError('bad_request', 'body: send JSON with Content-Type: application/json', 'body');
  const raw = parseJsonObject(decodeUtf8(await readBodyBytes(request, MAX_BODY_BYTES)));
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
  for (const o of trustedOrigins()) allowed.add(o);
  if (!allowed.has(origin)) throw new ApiError('forbidden', `cross-site request refused. ${untrustedOriginMessage()}`);
}

/** JSON response for private (per-account) data: never cached, no CORS. */
export function privateJson(data: unknown, status = 200): Response {
  return Response.json(data, { status, headers: { 'cache-control': 'private, no-store' } });
}
