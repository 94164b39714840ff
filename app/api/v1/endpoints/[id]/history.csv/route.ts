import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { endpointHistoryResponse } from '@/app/api/_lib/public-reads';

// GET /api/v1/endpoints/{id}/history.csv – the history series as CSV: one line per bucket, columns the JSON field paths.
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => endpointHistoryResponse(request, ctx, 'csv'));
export const OPTIONS = corsPreflight;
