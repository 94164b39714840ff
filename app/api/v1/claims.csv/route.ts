import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { claimsResponse } from '@/app/api/_lib/public-reads';

// GET /api/v1/claims.csv – the claims as CSV.
export const GET = handle(async (request: Request) => claimsResponse(request, 'csv'));
export const OPTIONS = corsPreflight;
