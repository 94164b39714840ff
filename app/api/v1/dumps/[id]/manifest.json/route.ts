import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { dumpManifestResponse } from '@/app/api/_lib/dumps';

// GET /api/v1/dumps/{id}/manifest.json – a dump's manifest: period, row count, checksums, every column with its unit and source.
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => dumpManifestResponse(request, ctx));
export const OPTIONS = corsPreflight;
