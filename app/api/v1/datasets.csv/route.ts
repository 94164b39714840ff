import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { datasetsResponse } from '@/app/api/_lib/public-reads';

// GET /api/v1/datasets.csv – the datasets as CSV.
export const GET = handle(async (request: Request) => datasetsResponse(request, 'csv'));
export const OPTIONS = corsPreflight;
