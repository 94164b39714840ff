/**
 * Disputes and annotations as the API, CSV, endpoint page and dump manifest publish them (decision
 * 232): ISO instants, no user ids (who opened or resolved a dispute is in the audit log, not public).
 * One function each, so the surfaces cannot drift apart.
 */
import type { z } from 'zod';
import type { annotationSchema, disputeSchema } from './dispute-schemas';

interface StoredDispute {
  id: number;
  endpointId: number;
  endpointSlug?: string;
  scope: 'measurement' | 'window' | 'change_point';
  measurementId: number | null;
  fromAt: Date;
  untilAt: Date;
  reason: string;
  evidence: string | null;
  links: string[];
  status: 'open' | 'accepted' | 'rejected' | 'annotated';
  exclude: boolean;
  resolution: string | null;
  resolvedAt: Date | null;
  createdAt: Date;
}

interface StoredAnnotation {
  id: number;
  endpointId: number | null;
  workerRegion: string | null;
  fromAt: Date;
  untilAt: Date;
  text: string;
  disputeId: number | null;
  createdAt: Date;
}

/** A dispute as published. */
export function publishDispute(d: StoredDispute): z.input<typeof disputeSchema> {
  return {
    id: d.id,
    endpointId: d.endpointId,
    ...(d.endpointSlug !== undefined ? { endpointSlug: d.endpointSlug } : {}),
    scope: d.scope,
    measurementId: d.measurementId,
    from: d.fromAt.toISOString(),
    until: d.untilAt.toISOString(),
    reason: d.reason,
    evidence: d.evidence,
    links: d.links,
    status: d.status,
    excluded: d.exclude,
    resolution: d.resolution,
    resolvedAt: d.resolvedAt ? d.resolvedAt.toISOString() : null,
    openedAt: d.createdAt.toISOString(),
  };
}

/** An annotation as published. */
export function publishAnnotation(a: StoredAnnotation): z.input<typeof annotationSchema> {
  return {
    id: a.id,
    endpointId: a.endpointId,
    workerRegion: a.workerRegion,
    from: a.fromAt.toISOString(),
    until: a.untilAt.toISOString(),
    text: a.text,
    disputeId: a.disputeId,
    createdAt: a.createdAt.toISOString(),
  };
}
