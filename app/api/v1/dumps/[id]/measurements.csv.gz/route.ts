import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { dumpFileResponse } from '@/app/api/_lib/dumps';

// GET|HEAD /api/v1/dumps/{id}/measurements.csv.gz – a dump's gzip CSV, streamed, with its SHA-256 (ETag, Repr-Digest, X-Checksum-SHA256).
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => dumpFileResponse(request, ctx));
export const HEAD = GET;
export const OPTIONS = corsPreflight;
