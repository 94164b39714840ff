import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { leaderboardResponse } from '@/app/api/_lib/leaderboard-route';

// GET /api/v1/leaderboard.csv – the leaderboard as CSV: one line per entry, columns the JSON field paths (outputTokensPerSecond.p50, ttftMs.p95, errorKinds.timeout, …).
export const GET = handle(async (request: Request) => leaderboardResponse(request, 'csv'));
export const OPTIONS = corsPreflight;
