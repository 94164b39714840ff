import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { measurementsResponse } from '@/app/api/_lib/public-reads';

// GET /api/v1/endpoints/{id}/measurements – an endpoint's measurements (filter: workload, since, until, outcome), newest first, keyset-paginated (nextCursor), each with workload, rankable and notRankableReasons; timelines with timeline=1 (CSV with Accept: text/csv).
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => measurementsResponse(request, ctx));
export const OPTIONS = corsPreflight;
