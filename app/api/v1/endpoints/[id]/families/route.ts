import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { endpointFamiliesResponse } from '@/app/api/_lib/families-read';

// GET /api/v1/endpoints/{id}/families – the workload families' figures (prompt cache, structured penalty, agent turns, cache lifetime), one row per figure (issue 25).
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => endpointFamiliesResponse(request, ctx));
export const OPTIONS = corsPreflight;
