/** URL paths of a weekly dump's gzip CSV and manifest (served by /api/v1/dumps/{id}/…, written into the manifest). */
export function dumpPaths(id: number): { file: string; manifest: string } {
  return { file: `/api/v1/dumps/${id}/measurements.csv.gz`, manifest: `/api/v1/dumps/${id}/manifest.json` };
}
