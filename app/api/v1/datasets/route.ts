import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { datasetsResponse } from '@/app/api/_lib/public-reads';

// GET /api/v1/datasets – imported third-party datasets with provenance and licence (CSV with Accept: text/csv).
export const GET = handle(async (request: Request) => datasetsResponse(request));
export const OPTIONS = corsPreflight;
