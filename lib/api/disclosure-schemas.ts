/**
 * Response schemas of disclosure revisions (decision 178): GET /api/v1/endpoints/{id}/revisions,
 * the `revision` of a change point in an endpoint's history, and the dump manifest's revisions.
 * Field names as lib/catalog/disclosure DisclosureValues (units in descriptions).
 */
import { z } from 'zod';
import { DISCLOSURE_FIELDS, DISCLOSURE_SOURCES } from '@/lib/catalog/disclosure';

const isoTime = z.string().meta({ format: 'date-time', description: 'ISO 8601 instant (UTC).', example: '2026-11-28T12:00:00.000Z' });

export const disclosureValuesSchema = z
  .object({
    modelSlug: z.string().meta({ description: 'The model (its weights, decision 221), by slug.' }),
    apiModelId: z.string().meta({ description: 'The provider’s model id: which version of the model the endpoint serves.' }),
    hardware: z.string().nullable().meta({ description: 'Declared hardware, e.g. DGX B200; null when undeclared.' }),
    gpuCount: z.number().int().nullable().meta({ description: 'Declared GPUs (accelerators) serving it, count; null when undeclared.' }),
    engine: z.string().nullable().meta({ description: 'Declared serving engine, e.g. TensorRT-LLM; null when undeclared.' }),
    precision: z.string().nullable().meta({ description: 'Declared precision, e.g. FP8; null when undeclared.' }),
    speculativeDecoding: z.string().nullable().meta({ description: 'Declared speculative decoding, e.g. EAGLE-3; null when none declared.' }),
    draftLength: z.number().int().nullable().meta({ description: 'Declared draft length, tokens; null when undeclared.' }),
    deploymentKind: z
      .enum(['shared', 'dedicated', 'self-hosted'])
      .nullable()
      .meta({ description: 'Declared tier: shared (serverless), dedicated or self-hosted; null when undeclared.' }),
    region: z.string().nullable().meta({ description: 'Declared serving region (not the probe region); null when undeclared.' }),
    system: z.string().nullable().meta({ description: 'The serving system in the claims’ words; null when undeclared.' }),
    contextWindowTokens: z.number().int().nullable().meta({ description: 'Declared context window, tokens; null when undeclared.' }),
  })
  .meta({ id: 'DisclosureValues', description: 'An endpoint’s declared metadata as of one revision (declared by the catalog or the owner; not verified).' });

export const disclosureRevisionSchema = z
  .object({
    id: z.number().int().meta({ description: 'Revision id: Measurement.disclosureRevisionId names it.' }),
    endpointId: z.number().int().meta({ description: 'The endpoint.' }),
    number: z.number().int().meta({ description: 'The endpoint’s revision number: 1, 2, … in order of effect.' }),
    effectiveFrom: isoTime.meta({
      description:
        'When these values took effect (UTC). A backfill revision records values already in force when revisions began (measurements before it have disclosureRevisionId null).',
    }),
    source: z.enum(DISCLOSURE_SOURCES).meta({
      description:
        'Who changed it: catalog (the reviewed catalog file), submission (the owner’s submission), owner_edit (the owner’s edit), admin, or backfill (the first record of an existing endpoint).',
    }),
    values: disclosureValuesSchema,
    changedFields: z
      .array(z.enum(DISCLOSURE_FIELDS))
      .meta({ description: 'Fields that differ from the previous revision (on revision 1 every declared one); `;`-joined in CSV.' }),
  })
  .meta({ id: 'DisclosureRevision', description: 'One dated revision of an endpoint’s declared metadata (decision 178).' });

export const disclosureRevisionsResponseSchema = z
  .object({
    endpointId: z.number().int().meta({ description: 'The endpoint.' }),
    items: z.array(disclosureRevisionSchema).meta({ description: 'Revisions, newest first (at most 200).' }),
  })
  .meta({ id: 'DisclosureRevisionList' });

/** The revision a change point is read against: the nearest revision change within 3 days, or null. */
export const changePointRevisionSchema = z
  .object({
    id: z.number().int().meta({ description: 'Revision id (GET /api/v1/endpoints/{id}/revisions).' }),
    number: z.number().int().meta({ description: 'The endpoint’s revision number.' }),
    effectiveFrom: isoTime.meta({ description: 'When the revision took effect.' }),
    changedFields: z.array(z.enum(DISCLOSURE_FIELDS)).meta({ description: 'What the owner or catalog changed.' }),
  })
  .nullable()
  .meta({
    id: 'ChangePointRevision',
    description:
      'The declared change (revision number ≥ 2) nearest the change point within 3 days, or null when none: a shift with a declared cause is read against it.',
  });
