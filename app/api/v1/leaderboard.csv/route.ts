import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { leaderboardResponse } from '@/app/api/_lib/leaderboard-route';

// GET /api/v1/leaderboard.csv – the leaderboard as CSV (units in column names).
export const GET = handle(async (request: Request) => leaderboardResponse(request, 'csv'));
export const OPTIONS = corsPreflight;
