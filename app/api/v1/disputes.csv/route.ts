import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { disputesResponse } from '@/app/api/_lib/disputes';

// GET /api/v1/disputes.csv – the disputes as CSV, one line per dispute, columns the JSON fields.
export const GET = handle(async (request: Request) => disputesResponse(request, 'csv'));
export const OPTIONS = corsPreflight;
