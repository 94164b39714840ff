import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { modelsResponse } from '@/app/api/_lib/public-reads';

// GET /api/v1/models – models with endpoint counts, and the workloads they are probed with (CSV with Accept: text/csv).
export const GET = handle(async (request: Request) => modelsResponse(request));
export const OPTIONS = corsPreflight;
