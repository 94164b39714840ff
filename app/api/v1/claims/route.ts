import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { claimsResponse } from '@/app/api/_lib/public-reads';

// GET /api/v1/claims – published vendor/press figures with source and bound, not measurements (CSV with Accept: text/csv).
export const GET = handle(async (request: Request) => claimsResponse(request));
export const OPTIONS = corsPreflight;
