/**
 * The shape of one documented operation of /api/v1, on its own so the operation lists of other
 * modules (lib/sweep/api-operations.ts) and the document builder (./openapi.ts) both depend on it
 * and not on each other (issue 28: the openapi ↔ sweep import cycle).
 */
import type { z } from 'zod';

/** One documented operation (a public GET unless `method`/`auth` say otherwise). */
export interface ApiOperation {
  path: string;
  /** HTTP method (default get) */
  method?: 'get' | 'post' | 'patch' | 'delete';
  /** needs a signed-in session (cookie) or a personal API token (Authorization: Bearer); 'admin' also an admin role */
  auth?: 'user' | 'session' | 'admin';
  /** JSON request body schema (write routes) */
  body?: z.ZodType;
  /** status of the success answer (default 200) */
  successStatus?: 200 | 201;
  /** a binary (non-JSON, non-CSV) answer of this content type, e.g. application/gzip */
  binary?: string;
  operationId: string;
  tag: 'Leaderboard' | 'Catalog' | 'Measurements' | 'History' | 'Dumps' | 'Claims and datasets' | 'Submissions' | 'Disputes' | 'Meta';
  summary: string;
  description: string;
  query?: z.ZodObject;
  pathParams?: z.ZodObject;
  /** JSON response schema; null for CSV-only routes */
  response: z.ZodType | null;
  /** the route also answers text/csv (Accept: text/csv, or it is a .csv route) */
  csv?: boolean;
  /** response cacheable for this many seconds (Cache-Control max-age) */
  maxAgeSeconds: number;
  /** example path parameters for docs and the contract test, e.g. { id: '1' } */
  examplePath?: Record<string, string>;
  /** example query for docs and the contract test */
  exampleQuery?: Record<string, string>;
}

/**
 * A JSON operation and its `.csv` twin, in that order (spread them into an operations list): the
 * twin is the same route with `.csv` after the path and `Csv` after the operationId, CSV only
 * (response null, csv true), with its own summary and description and, when given, its own
 * example query; everything else (method, auth, tag, path and query parameters, cache lifetime,
 * example path and otherwise example query) is the JSON operation's. The JSON operation must
 * answer CSV too (csv: true).
 */
export function withCsvTwin(
  op: ApiOperation & { csv: true },
  twin: { summary: string; description: string; exampleQuery?: Record<string, string> },
): [ApiOperation, ApiOperation] {
  return [op, { ...op, path: `${op.path}.csv`, operationId: `${op.operationId}Csv`, response: null, ...twin }];
}
