/**
 * A stored measurement row as the public API and the weekly dump publish it: measuredAt as an ISO
 * 8601 string, the keyset position dropped, the timeline decoded (when asked) or left out. One
 * function so /measurements, /measurements/{id} and the dump cannot drift apart.
 */
import type { z } from 'zod';
import { decodeTimeline } from '@/lib/probe/timeline-codec';
import type { measurementSchema } from './response-schemas';

/** The published shape of a measurement (z.input of the response schema). */
export type PublishedMeasurement = z.input<typeof measurementSchema>;

/** The fields a stored row must have beyond the published ones. */
interface StoredRow {
  measuredAt: Date;
  measuredAtMicros?: string;
  timeline?: Buffer | Uint8Array | null;
  errorKind: string | null;
  notRankableReasons: string[];
}

/**
 * Publishes one row. With `withTimeline` the encoded timeline is decoded (an absent one → []);
 * without it no `timeline` key is present. errorKind and notRankableReasons are passed through as
 * stored (the database holds only the words of ERROR_KINDS and NOT_RANKABLE_REASONS).
 */
export function publishMeasurement<R extends StoredRow>(row: R, withTimeline: boolean): PublishedMeasurement {
  const { timeline, measuredAtMicros: _position, ...rest } = row;
  const out = { ...rest, measuredAt: row.measuredAt.toISOString() } as unknown as PublishedMeasurement;
  return withTimeline ? { ...out, timeline: timeline ? decodeTimeline(timeline) : [] } : out;
}
