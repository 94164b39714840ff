/** Response schema of GET /api/v1/regions (zod → OpenAPI), matching db/queries/operations.ts listRegions. */
import { z } from 'zod';

export const regionsResponseSchema = z
  .object({
    items: z
      .array(
        z.object({
          region: z.string().meta({ description: 'Worker region label (where probes run from), e.g. eu, us.' }),
          measurements: z
            .number()
            .int()
            .meta({ description: 'Probes measured from this region (hourly rollups, all time; the current hour may lag by a minute).' }),
          measurementsLast7d: z.number().int().meta({ description: 'Of those, in the last 7 days.' }),
          lastMeasuredAt: z.string().nullable().meta({
            format: 'date-time',
            description:
              'When this region last measured (the newest measuredAt); where retention removed the raw rows of that hour, the end of its newest rolled-up hour, never after now. null when none yet.',
          }),
          liveWorkers: z.number().int().meta({ description: 'Workers of this region with a heartbeat in the last 60 s.' }),
        }),
      )
      .meta({
        description: 'Regions by name. Pass one as region= to the leaderboard, history and uptime for per-region figures; omit it for all regions merged.',
      }),
  })
  .meta({ id: 'RegionList' });
