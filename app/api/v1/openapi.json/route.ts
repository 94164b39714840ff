import { buildOpenApiDocument } from '@/lib/api/openapi';
import { emptyQuerySchema } from '@/lib/api/schemas';
import { corsPreflight, handle, parseQuery, readResponse } from '@/app/api/_lib/respond';

// GET /api/v1/openapi.json – the OpenAPI 3.1 document of the public API, generated from the zod schemas the routes validate with.
export const GET = handle(async (request: Request) => {
  parseQuery(emptyQuerySchema, new URL(request.url).searchParams);
  return readResponse(request, JSON.stringify(buildOpenApiDocument()), 'application/json; charset=utf-8', 3600);
});
export const OPTIONS = corsPreflight;
