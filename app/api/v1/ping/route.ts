import { emptyQuerySchema } from '@/lib/api/schemas';
import { corsPreflight, handle, parseQuery, readResponse } from '@/app/api/_lib/respond';

const PING = JSON.stringify({ ok: true, api: 'v1' });
const NO_PARAMS = emptyQuerySchema;

// GET /api/v1/ping – a constant JSON answer without database access (liveness; the static baseline of the API benchmark).
export const GET = handle(async (request: Request) => {
  parseQuery(NO_PARAMS, new URL(request.url).searchParams);
  return readResponse(request, PING, 'application/json; charset=utf-8', 0, { vary: null });
});
export const OPTIONS = corsPreflight;
