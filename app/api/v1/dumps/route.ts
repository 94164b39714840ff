import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { dumpsResponse } from '@/app/api/_lib/dumps';

// GET /api/v1/dumps – the weekly public data dumps: { id, from, until, rows, bytes, sha256, url, manifestUrl, createdAt }, newest first.
export const GET = handle(async (request: Request) => dumpsResponse(request));
export const OPTIONS = corsPreflight;
