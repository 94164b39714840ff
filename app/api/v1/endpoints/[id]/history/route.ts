import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { endpointHistoryResponse } from '@/app/api/_lib/public-reads';

// GET /api/v1/endpoints/{id}/history – hourly or daily rollups (count, successes, P5–P95 per metric) and change points of the daily median (CSV with Accept: text/csv).
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => endpointHistoryResponse(request, ctx));
export const OPTIONS = corsPreflight;
