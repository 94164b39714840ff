import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { modelComparisonResponse } from '@/app/api/_lib/model-comparison-route';

// GET /api/v1/model-comparison – every model's fastest endpoint (its board's first ranked entry) with filters (CSV with Accept: text/csv).
export const GET = handle(async (request: Request) => modelComparisonResponse(request));
export const OPTIONS = corsPreflight;
