/**
 * Response schema of GET /api/v1/workloads: the workload grid (lib/probe/workloads is its one
 * source; the cadence figures come from lib/probe/cadence).
 */
import { FIDELITY_CHECK_KINDS } from '@/lib/fidelity/tasks';
import { z } from 'zod';

export const workloadGridEntrySchema = z
  .object({
    id: z.number().int().meta({ description: 'Workload id (measurements carry it).' }),
    slug: z.string().meta({ description: 'Stable id `<category>-<input length>`; the leaderboard’s workload parameter.', example: 'prose-1k' }),
    name: z.string().meta({ description: 'Display name.' }),
    category: z.enum(['prose', 'code', 'math', 'json']).meta({ description: 'Prompt category.' }),
    inputTokens: z
      .number()
      .int()
      .meta({ description: 'Prompt length target, o200k_base tokens (prompts land within ±10 %; fidelity prompts at ~100 may reach 250).' }),
    maxOutputTokens: z.number().int().meta({ description: 'Output budget sent as max_tokens.' }),
    concurrency: z.number().int().meta({ description: 'Streams per probe (1: TPS/user is a single-stream figure).' }),
    description: z.string().meta({ description: 'What the prompt asks and how long it is.' }),
    headline: z.boolean().meta({ description: 'The headline workload: probed every slot, the leaderboard default.' }),
    probesPerDay: z.number().int().meta({
      description:
        'Probes per endpoint per day at the default 1-minute slot (headline 1,440; every other workload 8; calibration endpoints run every workload every slot).',
    }),
    minContextTokens: z.number().int().meta({ description: 'Smallest declared context window of an endpoint that runs this workload, tokens.' }),
    fidelityCheck: z.enum(FIDELITY_CHECK_KINDS).nullable().meta({
      description:
        'The check a fidelity probe of this workload carries (every fidelity prompt also carries a three-part access code spread over the prompt); null for the prompt-cache family (cache-*), which carries none.',
    }),
  })
  .meta({ id: 'WorkloadGridEntry' });

export const workloadsResponseSchema = z
  .object({
    items: z.array(workloadGridEntrySchema).meta({ description: 'The grid: 4 categories × 4 input lengths, in grid order.' }),
    fidelity: z
      .object({
        minimumPerHour: z.number().int().meta({ description: 'Fidelity probes per endpoint × workload per hour at least (when the workload runs that hour).' }),
        fraction: z.number().meta({ description: 'Share of the remaining probes that are fidelity probes.' }),
      })
      .meta({ description: 'How many probes are fidelity probes.' }),
  })
  .meta({ id: 'WorkloadList' });
