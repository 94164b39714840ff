import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { disputesResponse } from '@/app/api/_lib/disputes';

// GET /api/v1/disputes – every public dispute with its outcome, newest first (endpoint=, status=; Accept: text/csv or /api/v1/disputes.csv for CSV).
export const GET = handle(async (request: Request) => disputesResponse(request));
export const OPTIONS = corsPreflight;
