/**
 * The sweep operations of the public API, spread into lib/api/openapi.ts API_OPERATIONS (kept here
 * so the sweep routes and their documentation change together).
 */
import { z } from 'zod';
import { withCsvTwin, type ApiOperation } from '../api/api-operation';
import { emptyQuerySchema, endpointIdPathSchema, idParamSchema } from '../api/schemas';
import {
  createSweepBodySchema,
  endpointSweepsResponseSchema,
  sweepDetailResponseSchema,
  sweepSettingsResponseSchema,
  updateSweepSettingsBodySchema,
} from './sweep-schemas';

const sweepIdPathSchema = z.object({ id: idParamSchema.meta({ description: 'Sweep id (see /api/v1/endpoints/{id}/sweeps).', example: 1 }) });
const levelDesc =
  'Per level: requests started in the steady window, successes, failures by kind, P5–P95 of TPS/user, TTFT and TPOT, the aggregate output tokens/s of all streams over the steady window (per GPU when the endpoint declares its GPU count), and goodput (completed requests/s meeting the TTFT and TPOT objective; DistServe, vLLM --goodput; default limits MLPerf Inference v5.0 Llama 2 70B Interactive: TTFT 450 ms, TPOT 40 ms).';

/** Sweep routes: public reads and the owner's write routes. */
export const SWEEP_API_OPERATIONS: ApiOperation[] = [
  ...withCsvTwin(
    {
      path: '/api/v1/endpoints/{id}/sweeps',
      operationId: 'listEndpointSweeps',
      tag: 'Measurements',
      summary: 'Concurrency sweeps of an endpoint',
      description: `An endpoint’s sweeps (TPS/user against aggregate throughput at rising concurrency), newest first, each with its levels and its Pareto frontier. ${levelDesc}`,
      pathParams: endpointIdPathSchema,
      query: emptyQuerySchema,
      response: endpointSweepsResponseSchema,
      csv: true,
      maxAgeSeconds: 10,
      examplePath: { id: '{endpointId}' },
    },
    {
      summary: 'Sweeps of an endpoint as CSV',
      description: 'One line per level of every sweep: the level’s JSON fields under their dotted paths, then sweepId, endpointId, sweepStatus.',
    },
  ),
  {
    path: '/api/v1/sweeps/{id}',
    operationId: 'getSweep',
    tag: 'Measurements',
    summary: 'One sweep with its levels',
    description: `One sweep, live while it runs (currentConcurrency, streamsDone). ${levelDesc}`,
    pathParams: sweepIdPathSchema,
    query: emptyQuerySchema,
    response: sweepDetailResponseSchema,
    csv: true,
    maxAgeSeconds: 60,
    examplePath: { id: '{sweepId}' },
  },
  {
    path: '/api/v1/sweeps/{id}/levels.csv',
    operationId: 'getSweepCsv',
    tag: 'Measurements',
    summary: 'One sweep’s levels as CSV',
    description: 'One line per level, columns the JSON dotted paths.',
    pathParams: sweepIdPathSchema,
    query: emptyQuerySchema,
    response: null,
    csv: true,
    maxAgeSeconds: 60,
    examplePath: { id: '{sweepId}' },
  },
  {
    path: '/api/v1/endpoints/{id}/sweeps',
    method: 'post',
    auth: 'user',
    body: createSweepBodySchema,
    successStatus: 201,
    operationId: 'requestSweep',
    tag: 'Submissions',
    summary: 'Request a sweep of an own endpoint',
    description:
      'The owner or an admin queues a sweep within the endpoint’s consented limits (409 without consent or while another sweep of the endpoint is queued or running). Every stream goes through the same SSRF guard as probes.',
    pathParams: endpointIdPathSchema,
    response: sweepDetailResponseSchema,
    maxAgeSeconds: 0,
  },
  {
    path: '/api/v1/endpoints/{id}/sweep-settings',
    method: 'post',
    auth: 'user',
    body: updateSweepSettingsBodySchema,
    operationId: 'updateSweepSettings',
    tag: 'Submissions',
    summary: 'Consent to sweeps and their limits',
    description:
      'The owner requests (or withdraws) sweeps of the endpoint with their limits (highest concurrency, window per level, most levels); posted by an admin, the limits are also the admin’s consent, recorded with who and when. Sweeps run only on approved endpoints, within limits an admin consented to for the endpoint’s current URL.',
    pathParams: endpointIdPathSchema,
    response: sweepSettingsResponseSchema,
    maxAgeSeconds: 0,
  },
];
