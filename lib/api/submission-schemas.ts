/**
 * Request schemas of endpoint submission, shared by the /submit page (inline errors) and
 * POST/PATCH /api/v1/endpoints (400 naming each field). Strings are trimmed; control characters
 * are refused everywhere (they have no place in names and break logs); empty optional fields from
 * forms mean "not given".
 */
import { z } from 'zod';
import { endpointPricingSchema } from '@/lib/catalog/pricing';
import { PROTOCOLS } from '@/lib/probe/types';
import { checkDisplayName } from '@/lib/security/display-names';
import { serviceTierInputSchema, tierObjectiveInputSchema, tierProtocolIssue } from './service-tier-schemas';

/** Deployment kinds a submitter can declare. */
export const DEPLOYMENT_KINDS = ['shared', 'dedicated', 'self-hosted'] as const;

// C0/C1 control characters, DEL, and Unicode line/paragraph separators and bidi overrides: matching
// control characters is the point of these two patterns.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex
const NOTES_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

// Invisible characters (zero-width, joiners, soft hyphen, variation selectors, format characters):
// refused in every single-line field, they only serve to make two different texts look the same.
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/u;

/** A required single-line text of 1..max characters after NFKC normalisation and trimming. */
const line = (max: number, min = 1) =>
  z
    .string({ error: 'required' })
    .transform((v) => v.normalize('NFKC'))
    .pipe(
      z
        .string()
        .trim()
        .min(min, min === 1 ? 'required' : `at least ${min} characters`)
        .max(max, `at most ${max} characters`)
        .refine((v) => !CONTROL.test(v), 'must not contain control characters')
        .refine((v) => !INVISIBLE.test(v), 'must not contain invisible or formatting characters'),
    );

/**
 * A name shown publicly as an identity (provider, proposed model): a `line`, also refused when it
 * mixes scripts (look-alike letters such as a Cyrillic о in a Latin name); see
 * lib/security/display-names.ts. Stored NFKC-normalised with spaces collapsed.
 */
const displayName = (max: number, min = 1) =>
  line(max, min).transform((v, ctx) => {
    const checked = checkDisplayName(v);
    if (!checked.ok) {
      ctx.addIssue({ code: 'custom', message: checked.message });
      return z.NEVER;
    }
    return checked.value;
  });

/** An optional single-line text; '' counts as absent. */
const optionalLine = (max: number) => z.preprocess(emptyToUndefined, line(max).optional());

/** Slug of a model already in the catalog. */
const modelSlug = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,80}$/, 'must be the slug of a listed model');

/** API key as given by the provider: printable ASCII, no spaces. */
const apiKey = z
  .string()
  .min(8, 'at least 8 characters')
  .max(4096, 'at most 4096 characters')
  .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces');

const baseUrl = z
  .string({ error: 'required' })
  .trim()
  .min(1, 'required')
  .max(2048, 'at most 2048 characters')
  .refine((v) => !CONTROL.test(v), 'must not contain control characters')
  .refine((v) => URL.canParse(v), 'must be an absolute http(s) URL')
  .refine((v) => /^https?:$/.test(URL.canParse(v) ? new URL(v).protocol : ''), 'must use http or https')
  .refine(
    (v) => !URL.canParse(v) || (new URL(v).username === '' && new URL(v).password === ''),
    'must not contain credentials (send the API key in its own field)',
  );

/** What each body field means (OpenAPI descriptions; the same words as the submit form). */
const FIELD_DESCRIPTIONS: Record<string, string> = {
  provider:
    'Provider display name (2–80 characters); an existing provider is matched by name or slug (its name is claimed only with a verified email at its website’s domain, or an admin’s link at review), a new one waits for review.',
  model: 'Slug of a listed model (see /api/v1/models); give this or proposedModel.',
  proposedModel: 'Name of a model not in the catalog (waits for review); give this or model.',
  baseUrl: 'Absolute http(s) base URL the probe calls, without credentials (≤ 2048 characters).',
  protocol: 'Wire protocol: openai-chat, openai-responses, anthropic-messages, bedrock-converse-stream or gemini-stream.',
  apiModelId: 'Model id sent to the API (≤ 200 characters).',
  apiKey: 'API key (printable ASCII, 8–4096 characters); stored encrypted, never returned. PATCH: null removes it.',
  region: 'Declared serving region (≤ 80 characters).',
  hardware: 'Declared hardware, e.g. DGX B200 (≤ 120 characters).',
  engine: 'Declared serving engine, e.g. TensorRT-LLM (≤ 120 characters).',
  precision: 'Declared precision, e.g. FP8 (≤ 40 characters).',
  speculativeDecoding: 'Declared speculative decoding method, e.g. EAGLE-3 (≤ 120 characters).',
  draftLength: 'Declared draft length, tokens (1–64); needs speculativeDecoding.',
  deploymentKind: 'shared, dedicated or self-hosted.',
  system:
    'The serving system this endpoint is, in the words published claims use (e.g. "NVIDIA DGX B200 (8x B200), TensorRT-LLM, self-hosted"; ≤ 200 characters): a claim about that system is shown beside this endpoint. Prefilled by the catalog templates.',
  contextWindowTokens:
    'Declared context window, tokens (1,024–10,000,000): the ~100k-input workloads run only on endpoints whose window holds them. PATCH: null removes it.',
  serviceTier:
    'Declared service tier: { parameter, value }, one documented request parameter sent with every probe of this endpoint and no other: service_tier (openai-chat, openai-responses: auto, default, flex, priority, scale; anthropic-messages: auto, standard_only; gemini-stream: flex, priority), speed (anthropic-messages: fast), serviceTier.type (bedrock-converse-stream: priority, default, flex, reserved), X-Vertex-AI-LLM-Request-Type (gemini-stream: dedicated, shared), X-Vertex-AI-LLM-Shared-Request-Type (gemini-stream: priority, flex). A change sends the endpoint back to review and re-verifies it. PATCH: null removes it.',
  tierObjective:
    'The provider’s published objective for the tier: { share (0–1], minOutputTokensPerSecond (a request meets it above this TPS/user), maxTtftMs (at or under this TTFT), sourceUrl (the public page that publishes it) }, at least one threshold. Attainment over each window is published beside speed. PATCH: null removes it.',
  contact: 'How reviewers reach the submitter (3–200 characters; admins only).',
  notes: 'Free notes for reviewers (≤ 2000 characters).',
  pricing:
    'Declared prices: { inputUsdPerMTokens, outputUsdPerMTokens, cachedInputUsdPerMTokens (or null), currency "USD", source (public http(s) page with the price), asOf (YYYY-MM-DD) }; shown as declared, never as measured. PATCH: null removes it.',
  status: 'paused or active: pause or resume an approved endpoint (not together with a target change).',
  decision: 'approve (→ active, probed on schedule) or reject.',
  reason: 'Why (required to reject; ≤ 1000 characters).',
  revision: 'The submission revision the decision was made on (from the endpoint record); 409 if the submitter changed it since.',
  linkProvider:
    'Approve an endpoint whose submitter has not proven they speak for the existing provider it names (no verified email at its domain): true links it to that provider, recorded as the admin’s link (decision 162). Without it such an approval answers 409.',
  name: 'A name to recognise the token by (≤ 80 characters).',
};

/** A shape with every field described from FIELD_DESCRIPTIONS (throws on an undescribed field, so none is forgotten). */
function described<T extends Record<string, z.ZodType>>(shape: T): T {
  const out: Record<string, z.ZodType> = {};
  for (const [k, v] of Object.entries(shape)) {
    const description = FIELD_DESCRIPTIONS[k];
    if (!description) throw new Error(`submission-schemas: no description for field ${k}`);
    out[k] = v.meta({ description });
  }
  return out as T;
}

/** Declared metadata and contact fields common to create and update. */
const metadataShape = {
  region: optionalLine(80),
  hardware: optionalLine(120),
  engine: optionalLine(120),
  precision: optionalLine(40),
  speculativeDecoding: optionalLine(120),
  draftLength: z.preprocess(
    emptyToUndefined,
    z.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'at least 1').max(64, 'at most 64').optional(),
  ),
  deploymentKind: z.enum(DEPLOYMENT_KINDS, { error: `one of ${DEPLOYMENT_KINDS.join(', ')}` }),
  system: optionalLine(200),
  contextWindowTokens: z.preprocess(
    emptyToUndefined,
    z
      .number({ error: 'must be a whole number of tokens' })
      .int('must be a whole number of tokens')
      .min(1024, 'at least 1024 tokens')
      .max(10_000_000, 'at most 10,000,000 tokens')
      .optional(),
  ),
  contact: line(200, 3),
  notes: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .max(2000, 'at most 2000 characters')
      .refine((v) => !NOTES_CONTROL.test(v), 'must not contain control characters')
      .optional(),
  ),
};

/**
 * POST /api/v1/endpoints body. `model` picks a listed model by slug; `proposedModel` names a model
 * not in the catalog (exactly one of the two). `provider` is the provider's display name (an
 * existing provider is matched by name or slug; a new one waits for review like the endpoint).
 */
export const createEndpointBodySchema = z
  .object(
    described({
      provider: displayName(80, 2),
      model: z.preprocess(emptyToUndefined, modelSlug.optional()),
      proposedModel: z.preprocess(emptyToUndefined, displayName(120).optional()),
      baseUrl,
      protocol: z.enum(PROTOCOLS, { error: `one of ${PROTOCOLS.join(', ')}` }),
      apiModelId: line(200),
      apiKey: z.preprocess(emptyToUndefined, apiKey.optional()),
      ...metadataShape,
      pricing: endpointPricingSchema.optional(),
      serviceTier: serviceTierInputSchema.optional(),
      tierObjective: tierObjectiveInputSchema.optional(),
    }),
  )
  .strict()
  .superRefine((v, ctx) => {
    const tierIssue = tierProtocolIssue(v.protocol, v.serviceTier);
    if (tierIssue) ctx.addIssue({ code: 'custom', path: ['serviceTier', 'value'], message: tierIssue });
    if (v.model === undefined && v.proposedModel === undefined) ctx.addIssue({ code: 'custom', path: ['model'], message: 'pick a model or propose one' });
    if (v.model !== undefined && v.proposedModel !== undefined)
      ctx.addIssue({ code: 'custom', path: ['proposedModel'], message: 'either pick a model or propose one, not both' });
    if (v.draftLength !== undefined && v.speculativeDecoding === undefined)
      ctx.addIssue({ code: 'custom', path: ['draftLength'], message: 'give the speculative decoding method too' });
  });
export type CreateEndpointBody = z.infer<typeof createEndpointBodySchema>;

/**
 * PATCH /api/v1/endpoints/{id} body: any of the probe target fields (a change of baseUrl, apiKey,
 * protocol or apiModelId sends the endpoint back to review), declared metadata, `apiKey: null`
 * to remove the key, and `status: 'paused' | 'active'` to pause or resume an approved endpoint.
 */
export const updateEndpointBodySchema = z
  .object(
    described({
      baseUrl: baseUrl.optional(),
      protocol: z.enum(PROTOCOLS, { error: `one of ${PROTOCOLS.join(', ')}` }).optional(),
      apiModelId: line(200).optional(),
      apiKey: z.union([apiKey, z.null()]).optional(),
      region: z.union([optionalLine(80), z.null()]),
      hardware: z.union([optionalLine(120), z.null()]),
      engine: z.union([optionalLine(120), z.null()]),
      precision: z.union([optionalLine(40), z.null()]),
      speculativeDecoding: z.union([optionalLine(120), z.null()]),
      draftLength: z.union([metadataShape.draftLength, z.null()]),
      deploymentKind: metadataShape.deploymentKind.optional(),
      system: z.union([optionalLine(200), z.null()]),
      contextWindowTokens: z.union([metadataShape.contextWindowTokens, z.null()]),
      contact: line(200, 3).optional(),
      notes: z.union([metadataShape.notes, z.null()]),
      pricing: z.union([endpointPricingSchema, z.null()]).optional(),
      serviceTier: z.union([serviceTierInputSchema, z.null()]).optional(),
      tierObjective: z.union([tierObjectiveInputSchema, z.null()]).optional(),
      status: z.enum(['paused', 'active'], { error: 'paused or active' }).optional(),
    }),
  )
  .strict()
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'nothing to change', path: ['body'] });
export type UpdateEndpointBody = z.infer<typeof updateEndpointBodySchema>;

/** POST /api/v1/endpoints/{id}/review body (admins). */
export const reviewEndpointBodySchema = z
  .object(
    described({
      decision: z.enum(['approve', 'reject'], { error: 'approve or reject' }),
      reason: z.preprocess(emptyToUndefined, line(1000).optional()),
      revision: z.number({ error: 'the revision you reviewed (a whole number)' }).int('a whole number').min(1, 'at least 1'),
      linkProvider: z.boolean({ error: 'true or false' }).optional(),
    }),
  )
  .strict()
  .superRefine((v, ctx) => {
    if (v.decision === 'reject' && v.reason === undefined) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'a rejection needs a reason' });
  });

/** POST /api/v1/tokens body. */
export const createTokenBodySchema = z.object(described({ name: line(80) })).strict();

/** One field's problem, as shown inline by the form and returned in `error.fields`. */
export interface FieldIssue {
  field: string;
  message: string;
}

/** Every issue of a failed parse as `{ field, message }`, one per field (first message wins), in schema order. */
export function fieldIssues(error: z.ZodError): FieldIssue[] {
  const seen = new Map<string, string>();
  for (const issue of error.issues) {
    let field = issue.path.map(String).join('.') || 'body';
    let message = issue.message;
    if (issue.code === 'unrecognized_keys') {
      // a nested object's unknown key is named with its path (serviceTier.extra), a top-level one alone
      for (const key of issue.keys) {
        const name = [...issue.path.map(String), key].join('.');
        if (!seen.has(name)) seen.set(name, 'unknown field');
      }
      continue;
    }
    if (issue.code === 'invalid_type' && issue.path.length === 0) {
      field = 'body';
      message = 'must be a JSON object';
    }
    if (!seen.has(field)) seen.set(field, message);
  }
  return [...seen].map(([field, message]) => ({ field, message }));
}
