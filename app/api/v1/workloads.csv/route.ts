import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { workloadsResponse } from '@/app/api/_lib/workloads-read';

// GET /api/v1/workloads.csv – the workload grid as CSV.
export const GET = handle(async (request: Request) => workloadsResponse(request, 'csv'));
export const OPTIONS = corsPreflight;
