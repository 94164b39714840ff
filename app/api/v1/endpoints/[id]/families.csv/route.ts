import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { endpointFamiliesResponse } from '@/app/api/_lib/families-read';

// GET /api/v1/endpoints/{id}/families.csv – the workload families' figures as CSV, one line per figure, columns the JSON fields.
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => endpointFamiliesResponse(request, ctx, 'csv'));
export const OPTIONS = corsPreflight;
