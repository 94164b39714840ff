import { ApiError, handle } from '@/app/api/_lib/respond';

/** Any method on a path under /api/v1 that no route serves: 404 in the one JSON error shape (never the HTML page). */
const notFound = handle(async (request: Request) => {
  throw new ApiError('not_found', `no API route ${new URL(request.url).pathname} (see /api/v1/openapi.json)`, 'path');
});

// GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS /api/v1/* (unmatched) – 404 JSON naming the path.
export const GET = notFound;
export const HEAD = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
