import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { workloadsResponse } from '@/app/api/_lib/workloads-read';

// GET /api/v1/workloads – the workload grid: slug, category, inputTokens, maxOutputTokens, description, cadence (CSV with Accept: text/csv).
export const GET = handle(async (request: Request) => workloadsResponse(request));
export const OPTIONS = corsPreflight;
