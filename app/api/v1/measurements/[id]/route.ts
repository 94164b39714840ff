import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { measurementResponse } from '@/app/api/_lib/public-reads';

// GET /api/v1/measurements/{id} – one measurement (the evidence behind a figure) with its decoded timeline.
export const GET = handle(async (request: Request, ctx: { params: Promise<{ id: string }> }) => measurementResponse(request, ctx));
export const OPTIONS = corsPreflight;
