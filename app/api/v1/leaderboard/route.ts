import { corsPreflight, handle } from '@/app/api/_lib/respond';
import { leaderboardResponse } from '@/app/api/_lib/leaderboard-route';

// GET /api/v1/leaderboard – ranked endpoints of a model × workload over a window (JSON; CSV with Accept: text/csv), with snapshotId.
export const GET = handle(async (request: Request) => leaderboardResponse(request));
export const OPTIONS = corsPreflight;
