/**
 * "Does this board exist?" for every surface that shows a leaderboard answer (API JSON and CSV,
 * pages, embeds, OG images): the model and workload must be in the catalog (listed) and a region,
 * when given, one that has measured or runs a worker. Checked before any answer is computed or any
 * snapshot row written (issue 19 #5, #14; decision 163), so URL text never becomes a stored board.
 */
import type { Db } from '@/db/client';
import { resolveCatalogSlugs } from '@/server/catalog-slugs';
import { listRegionNames } from './regions';

/** The subject of one board question. */
export interface BoardSubject {
  model: string;
  workload: string;
  region?: string | null;
}

/** The first unknown field of a board question: which field, and a message for a 404. */
export interface UnknownField {
  field: 'model' | 'workload' | 'region';
  message: string;
}

/** A board question naming something that does not exist (404 naming `field`). */
export class UnknownBoardFieldError extends Error {
  constructor(readonly unknown: UnknownField) {
    super(unknown.message);
  }
}

/** Null when the board exists; else the first unknown field (model, then workload, then region). */
export async function findUnknownBoardField(db: Db, q: BoardSubject): Promise<UnknownField | null> {
  const r = await resolveCatalogSlugs(db, { model: q.model, workload: q.workload });
  if (r.unknown) {
    const kind = r.unknown.kind as 'model' | 'workload';
    return { field: kind, message: `${kind}: no ${kind} "${r.unknown.slug}" (see /api/v1/models)` };
  }
  if (q.region && !(await listRegionNames(db)).includes(q.region))
    return { field: 'region', message: `region: no worker region "${q.region}" (see /api/v1/regions)` };
  return null;
}

/** Throws {@link UnknownBoardFieldError} unless the board exists. */
export async function requireBoardSubject(db: Db, q: BoardSubject): Promise<void> {
  const unknown = await findUnknownBoardField(db, q);
  if (unknown) throw new UnknownBoardFieldError(unknown);
}
