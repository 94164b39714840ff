import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { modelHistoryResponse } from '@/app/api/_lib/public-reads';

// GET /api/v1/history – each endpoint of a model: daily median output speed with P25–P75 and change points (CSV with Accept: text/csv).
export const GET = handle(async (request: Request) => modelHistoryResponse(request));
export const OPTIONS = corsPreflight;
