/**
 * Schemas of disputes and annotations (decision 232): request bodies and published shapes, one
 * zod definition each, from which validation, OpenAPI and CSV columns are derived.
 */
import { z } from 'zod';

const isoTime = z.string().meta({ format: 'date-time', description: 'ISO 8601 instant (UTC).', example: '2026-11-28T12:00:00.000Z' });
// Control and bidirectional-override characters have no place in public text.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'required')
    .max(max, `at most ${max} characters`)
    .refine((s) => !CONTROL.test(s), 'control characters are not allowed');
const instant = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 instant' });
const link = z
  .string()
  .max(500, 'at most 500 characters')
  .refine((s) => {
    try {
      return ['https:', 'http:'].includes(new URL(s).protocol);
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

export const DISPUTE_SCOPES = ['measurement', 'window', 'change_point'] as const;
export const DISPUTE_STATUSES = ['open', 'accepted', 'rejected', 'annotated'] as const;

/** A disputed or annotated period [from, until) must be positive and at most 31 days long; issues are raised on `until`. */
function checkPeriod(from: string, until: string, ctx: z.RefinementCtx) {
  const span = Date.parse(until) - Date.parse(from);
  if (!(span > 0)) ctx.addIssue({ code: 'custom', path: ['until'], message: 'must be after from' });
  else if (span > 31 * 86_400_000) ctx.addIssue({ code: 'custom', path: ['until'], message: 'at most 31 days after from' });
}

/** POST /api/v1/endpoints/{id}/disputes */
export const openDisputeBodySchema = z
  .object({
    scope: z.enum(DISPUTE_SCOPES).meta({ description: 'What is disputed: one measurement, a window, or a change point (give the window around it).' }),
    measurementId: z.number().int().positive().optional().meta({ description: 'The disputed measurement (scope measurement).' }),
    from: instant.optional().meta({ description: 'Start of the disputed period (scope window or change_point), inclusive.' }),
    until: instant.optional().meta({ description: 'End of the disputed period, exclusive; at most 31 days after from.' }),
    reason: text(2000).meta({ description: 'Why the figures are wrong (e.g. our worker region had an outage, the endpoint was misconfigured).' }),
    evidence: text(10_000).optional().meta({ description: 'Evidence as text (logs, status page excerpts).' }),
    links: z.array(link).max(10, 'at most 10 links').optional().meta({ description: 'Links to evidence (status pages, incident reports).' }),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.scope === 'measurement') {
      if (b.measurementId === undefined) ctx.addIssue({ code: 'custom', path: ['measurementId'], message: 'required for scope measurement' });
      if (b.from !== undefined || b.until !== undefined)
        ctx.addIssue({ code: 'custom', path: ['from'], message: 'not allowed for scope measurement (its instant is the measurement’s)' });
      return;
    }
    if (b.measurementId !== undefined) ctx.addIssue({ code: 'custom', path: ['measurementId'], message: `only for scope measurement` });
    if (b.from === undefined) ctx.addIssue({ code: 'custom', path: ['from'], message: 'required' });
    if (b.until === undefined) ctx.addIssue({ code: 'custom', path: ['until'], message: 'required' });
    if (b.from && b.until) checkPeriod(b.from, b.until, ctx);
  })
  .meta({ id: 'OpenDisputeBody' });

/** POST /api/v1/disputes/{id}/resolution (admins) */
export const resolveDisputeBodySchema = z
  .object({
    decision: z
      .enum(['accepted', 'rejected', 'annotated'])
      .meta({ description: 'accepted: the dispute holds; rejected: it does not; annotated: a note on the period, nothing excluded.' }),
    exclude: z
      .boolean()
      .optional()
      .meta({ description: 'With accepted: leave the covered measurements out of every figure (reason disputed). They are never deleted or changed.' }),
    note: text(2000).meta({ description: 'The decision’s reason, published with the dispute and as an annotation.' }),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.exclude && b.decision !== 'accepted') ctx.addIssue({ code: 'custom', path: ['exclude'], message: 'only with decision accepted' });
  })
  .meta({ id: 'ResolveDisputeBody' });

/** POST /api/v1/annotations (admins) */
export const createAnnotationBodySchema = z
  .object({
    endpointId: z
      .number()
      .int()
      .positive()
      .optional()
      .meta({ description: 'The endpoint annotated; absent for a note on every endpoint (e.g. our region’s outage).' }),
    workerRegion: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,40}$/, 'must be a region label')
      .optional()
      .meta({ description: 'The worker region concerned, if one.' }),
    from: instant.meta({ description: 'Start of the period, inclusive.' }),
    until: instant.meta({ description: 'End of the period, exclusive; at most 31 days after from.' }),
    text: text(2000).meta({ description: 'What happened, in words for visitors.' }),
  })
  .strict()
  .superRefine((b, ctx) => checkPeriod(b.from, b.until, ctx))
  .meta({ id: 'CreateAnnotationBody' });

/** A dispute as published. */
export const disputeSchema = z
  .object({
    id: z.number().int().meta({ description: 'Dispute id.' }),
    endpointId: z.number().int().meta({ description: 'The disputed endpoint.' }),
    endpointSlug: z.string().optional().meta({ description: 'Its slug (in lists).' }),
    scope: z.enum(DISPUTE_SCOPES).meta({ description: 'measurement, window or change_point.' }),
    measurementId: z.number().int().nullable().meta({ description: 'The disputed measurement (scope measurement), else null.' }),
    from: isoTime.meta({ description: 'Start of the covered period (inclusive).' }),
    until: isoTime.meta({ description: 'End of the covered period (exclusive).' }),
    reason: z.string().meta({ description: 'The dispute’s reason.' }),
    evidence: z.string().nullable().meta({ description: 'Evidence given as text.' }),
    links: z.array(z.string()).meta({ description: 'Links to evidence; `;`-joined in CSV.' }),
    status: z.enum(DISPUTE_STATUSES).meta({ description: 'open, accepted, rejected or annotated.' }),
    excluded: z.boolean().meta({ description: 'True when the covered measurements are left out of every figure (reason disputed).' }),
    resolution: z.string().nullable().meta({ description: 'The admin’s note on the decision.' }),
    resolvedAt: isoTime.nullable().meta({ description: 'When it was decided; null while open.' }),
    openedAt: isoTime.meta({ description: 'When it was opened.' }),
  })
  .meta({ id: 'Dispute', description: 'A dispute of an endpoint’s figures and its outcome (public; who opened and decided it is in the audit log).' });

/** An annotation as published. */
export const annotationSchema = z
  .object({
    id: z.number().int().meta({ description: 'Annotation id.' }),
    endpointId: z.number().int().nullable().meta({ description: 'The endpoint; null for a note on every endpoint.' }),
    workerRegion: z.string().nullable().meta({ description: 'The worker region concerned, or null.' }),
    from: isoTime.meta({ description: 'Start of the period (inclusive).' }),
    until: isoTime.meta({ description: 'End of the period (exclusive).' }),
    text: z.string().meta({ description: 'What happened.' }),
    disputeId: z.number().int().nullable().meta({ description: 'The dispute it records the outcome of, if any.' }),
    createdAt: isoTime.meta({ description: 'When it was written.' }),
  })
  .meta({ id: 'Annotation', description: 'A note on a period of the figures, shown on history charts.' });

export const disputesQuerySchema = z
  .object({
    endpoint: z.coerce.number().int().positive().optional().meta({ description: 'Only disputes of this endpoint id.' }),
    status: z.enum(DISPUTE_STATUSES).optional().meta({ description: 'Only disputes with this status.' }),
  })
  .meta({ id: 'DisputesQuery' });

export const annotationsQuerySchema = z
  .object({
    endpoint: z.coerce.number().int().positive().optional().meta({ description: 'Annotations of this endpoint id (and those of every endpoint).' }),
    since: z.iso.datetime({ offset: true }).optional().meta({ description: 'Periods ending at or after this instant (default: 90 days ago).' }),
    until: z.iso.datetime({ offset: true }).optional().meta({ description: 'Periods starting before this instant (default: now).' }),
  })
  .meta({ id: 'AnnotationsQuery' });

export const disputesResponseSchema = z
  .object({ items: z.array(disputeSchema).meta({ description: 'Disputes, newest first (at most 500).' }) })
  .meta({ id: 'DisputeList' });
export const annotationsResponseSchema = z
  .object({ items: z.array(annotationSchema).meta({ description: 'Annotations, oldest first (at most 500).' }) })
  .meta({ id: 'AnnotationList' });
export const disputeResultSchema = z.object({ dispute: disputeSchema }).meta({ id: 'DisputeResult' });
export const annotationResultSchema = z.object({ annotation: annotationSchema }).meta({ id: 'AnnotationResult' });
