import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { measurementsResponse } from '@/app/api/_lib/public-reads';

// GET /api/v1/endpoints/{id}/measurements – an endpoint's measurements, newest first, cursor-paginated, each with its timeline (CSV with Accept: text/csv).
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => measurementsResponse(request, ctx));
export const OPTIONS = corsPreflight;
