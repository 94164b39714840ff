import { sweepLevelCsvRowSchema, type SweepDetailView } from '@/lib/sweep/sweep-schemas';
import { csvRead } from './respond';

/** CSV of sweeps: one line per level, with its sweep id, endpoint id and sweep status (the one flattener, lib/api/csv). */
export function sweepsCsv(request: Request, sweeps: readonly SweepDetailView[], filename: string): Response {
  const rows = sweeps.flatMap((s) => s.levels.map((l) => ({ ...l, sweepId: s.sweep.id, endpointId: s.sweep.endpointId, sweepStatus: s.sweep.status })));
  return csvRead(request, sweepLevelCsvRowSchema, rows, filename, {}, 10);
}
