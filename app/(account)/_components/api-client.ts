'use client';
/** Browser-side calls to our JSON API with the session cookie; errors come back in the API's one shape. */

export interface ApiFailure {
  status: number;
  code: string;
  message: string;
  field?: string;
  fields: Array<{ field: string; message: string }>;
  retryAfterSeconds?: number;
}

/** Sends JSON and returns `{ ok: true, data }` or `{ ok: false, error }` (never throws on HTTP errors). */
export async function callApi<T>(method: string, path: string, body?: unknown): Promise<{ ok: true; data: T } | { ok: false; error: ApiFailure }> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    return { ok: false, error: { status: 0, code: 'network', message: 'network error: could not reach the server', fields: [] } };
  }
  const json = (await res.json().catch(() => null)) as Record<string, any> | null;
  if (res.ok) return { ok: true, data: json as T };
  const err = json?.error;
  // better-auth answers { code, message } without the wrapper
  const message = typeof err === 'object' && err ? String(err.message) : String(json?.message ?? `HTTP ${res.status}`);
  const retry = Number(res.headers.get('retry-after'));
  return {
    ok: false,
    error: {
      status: res.status,
      code: typeof err === 'object' && err ? String(err.code) : String(json?.code ?? 'error'),
      message: res.status === 429 && retry ? `${message} (try again in ${retry} s)` : message,
      field: err?.field,
      fields: Array.isArray(err?.fields) ? err.fields : err?.field ? [{ field: err.field, message }] : [],
      retryAfterSeconds: retry || undefined,
    },
  };
}

/** Field → message map of a failure or a zod result, for inline errors. */
export function errorsByField(fields: Array<{ field: string; message: string }>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) if (!(f.field in out)) out[f.field] = f.message;
  return out;
}
