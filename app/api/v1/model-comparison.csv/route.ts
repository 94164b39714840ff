import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { modelComparisonResponse } from '@/app/api/_lib/model-comparison-route';

// GET /api/v1/model-comparison.csv – the model comparison as CSV, one line per model.
export const GET = handle(async (request: Request) => modelComparisonResponse(request, 'csv'));
export const OPTIONS = corsPreflight;
