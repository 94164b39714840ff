/**
 * Response schema of GET /api/v1/endpoints/{id}/uptime (zod → OpenAPI), matching
 * db/queries/uptime.ts and lib/stats/uptime.ts.
 */
import { z } from 'zod';

const uptimeWindowSchema = z
  .object({
    n: z.number().int().meta({ description: 'Probes counted in the window (all workloads; cancelled probes excluded).' }),
    successes: z.number().int().meta({ description: 'Probes that succeeded.' }),
    successFraction: z.number().nullable().meta({ description: 'successes ÷ n (0–1, 4 decimals); null when n = 0.' }),
  })
  .meta({ id: 'UptimeWindow' });

export const endpointUptimeSchema = z
  .object({
    endpointId: z.number().int().meta({ description: 'Endpoint id.' }),
    asOf: z.string().meta({ format: 'date-time', description: 'Instant the windows end at (UTC).' }),
    region: z.string().nullable().meta({ description: 'Worker region counted; null = all regions merged.' }),
    windows: z
      .object({ '5m': uptimeWindowSchema, '30m': uptimeWindowSchema, '1d': uptimeWindowSchema, '7d': uptimeWindowSchema })
      .meta({ description: 'Share of successful probes over the trailing 5 minutes, 30 minutes, 1 day and 7 days.' }),
    recent: z
      .array(
        z.object({
          measuredAt: z.string().meta({ format: 'date-time', description: 'When the probe started (UTC).' }),
          outcome: z.enum(['success', 'error']).meta({ description: 'success or error (see errorKind).' }),
          errorKind: z.string().nullable().meta({ description: 'Why the probe failed (timeout, rate_limited, http_error, …); null on success.' }),
          region: z.string().meta({ description: 'Worker region of the probe.' }),
        }),
      )
      .meta({ description: 'The most recent probes (up to 60), newest first: the status strip.' }),
  })
  .meta({ id: 'EndpointUptime' });

/** Query of the uptime route: an optional worker region. */
export const uptimeQuerySchema = z.object({
  region: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'lower-case letters, digits and -')
    .optional()
    .meta({ description: 'Count only probes from this worker region (default: all regions).' }),
});
