import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { modelsResponse } from '@/app/api/_lib/public-reads';

// GET /api/v1/models.csv – the models as CSV.
export const GET = handle(async (request: Request) => modelsResponse(request, 'csv'));
export const OPTIONS = corsPreflight;
