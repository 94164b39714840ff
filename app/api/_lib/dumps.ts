/**
 * Handlers of the weekly public data dumps (decision 077): the list, each dump's manifest, and its
 * gzip CSV streamed chunk by chunk from the database with its checksums in the headers
 * (ETag = the SHA-256, Repr-Digest per RFC 9530, X-Checksum-SHA256 in hex).
 */
import { connection } from 'next/server';
import type { z } from 'zod';
import { getDump, listDumps, readDumpChunk, type DumpRow } from '@/db/queries/dumps';
import { getDb } from '@/server/shared';
import { dumpPaths } from '@/lib/api/dump-paths';
import type { dumpManifestSchema, dumpsResponseSchema } from '@/lib/api/response-schemas';
import { emptyQuerySchema, idParamSchema } from '@/lib/api/schemas';
import { getSigner, signDigestHeader } from '@/server/signing';
import { SIGNATURE_HEADER } from '@/lib/security/signatures';
import { ApiError, CORS_HEADERS, cacheControlOf, ifNoneMatchHits, jsonRead, parseParam, parseQuery } from './respond';
import { signedJsonRead } from './signed-read';

type Ctx = { params: Promise<{ id: string }> };

async function loadDump(request: Request, ctx: Ctx): Promise<DumpRow> {
  await connection();
  const id = parseParam(idParamSchema, (await ctx.params).id, 'id');
  parseQuery(emptyQuerySchema, new URL(request.url).searchParams);
  const dump = await getDump(getDb(), id);
  if (!dump) throw new ApiError('not_found', `dump ${id} not found`, 'id');
  return dump;
}

/** GET /api/v1/dumps */
export async function dumpsResponse(request: Request): Promise<Response> {
  await connection();
  parseQuery(emptyQuerySchema, new URL(request.url).searchParams);
  const items = (await listDumps(getDb())).map((d) => ({
    id: d.id,
    from: d.fromAt.toISOString(),
    until: d.untilAt.toISOString(),
    rows: d.rows,
    bytes: d.bytes,
    sha256: d.sha256,
    url: dumpPaths(d.id).file,
    manifestUrl: dumpPaths(d.id).manifest,
    createdAt: d.createdAt.toISOString(),
  }));
  const body: z.input<typeof dumpsResponseSchema> = { items };
  return jsonRead(request, body, 300);
}

/** GET /api/v1/dumps/{id}/manifest.json */
export async function dumpManifestResponse(request: Request, ctx: Ctx): Promise<Response> {
  const dump = await loadDump(request, ctx);
  const manifest: z.input<typeof dumpManifestSchema> = dump.manifest as z.input<typeof dumpManifestSchema>;
  // Signed (decision 230): the manifest holds the file's SHA-256, so its signature covers the file too.
  return signedJsonRead(request, getDb(), JSON.stringify(manifest), 86_400, { contentKey: `dump-manifest:${dump.id}:${dump.sha256}` });
}

/**
 * GET|HEAD /api/v1/dumps/{id}/measurements.csv.gz – the file, streamed one stored chunk (~1 MiB) at
 * a time, never whole in memory. Immutable: cached for a year; If-None-Match with the ETag → 304.
 */
export async function dumpFileResponse(request: Request, ctx: Ctx): Promise<Response> {
  const dump = await loadDump(request, ctx);
  const etag = `"${dump.sha256}"`;
  const signer = await getSigner(getDb());
  const headers: Record<string, string> = {
    ...CORS_HEADERS,
    'access-control-expose-headers': 'etag, repr-digest, x-checksum-sha256, content-length, tokenpace-signature',
    'content-type': 'application/gzip',
    'content-length': String(dump.bytes),
    'content-disposition': `attachment; filename="tokenpace-measurements-${dump.fromAt.toISOString().slice(0, 10)}.csv.gz"`,
    'cache-control': cacheControlOf({ maxAgeSeconds: 31_536_000, immutable: true }),
    etag,
    'repr-digest': `sha-256=:${Buffer.from(dump.sha256, 'hex').toString('base64')}:`,
    'x-checksum-sha256': dump.sha256,
    // The file's raw SHA-256 digest is what is signed (covers="sha256"): a dump is never held whole in memory.
    ...(signer ? { [SIGNATURE_HEADER]: signDigestHeader(signer, dump.sha256) } : {}),
  };
  if (ifNoneMatchHits(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
  const db = getDb();
  let seq = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await readDumpChunk(db, dump.id, seq++);
      if (chunk) controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      else controller.close();
    },
  });
  return new Response(body, { status: 200, headers });
}
