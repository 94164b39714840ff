import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { modelHistoryResponse } from '@/app/api/_lib/public-reads';

// GET /api/v1/history.csv – the model history as CSV, one row per endpoint and day.
export const GET = handle(async (request: Request) => modelHistoryResponse(request, 'csv'));
export const OPTIONS = corsPreflight;
