import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { providersResponse } from '@/app/api/_lib/public-reads';

// GET /api/v1/providers – providers with endpoint counts; kind "calibration" marks our reference servers (CSV with Accept: text/csv).
export const GET = handle(async (request: Request) => providersResponse(request));
export const OPTIONS = corsPreflight;
