import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { measurementsResponse } from '@/app/api/_lib/public-reads';

// GET /api/v1/endpoints/{id}/measurements.csv – one page of an endpoint's measurements as CSV (columns = JSON field paths, no timelines; next page in X-Next-Cursor / Link).
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => measurementsResponse(request, ctx, 'csv'));
export const OPTIONS = corsPreflight;
