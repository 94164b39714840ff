import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { providersResponse } from '@/app/api/_lib/public-reads';

// GET /api/v1/providers.csv – the providers as CSV.
export const GET = handle(async (request: Request) => providersResponse(request, 'csv'));
export const OPTIONS = corsPreflight;
