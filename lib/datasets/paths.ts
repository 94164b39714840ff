/**
 * Where dataset files live, for importers and tests (Node only).
 *
 * - {@link FIXTURES_DIR}: the copies committed with the repo under lib/datasets/test-fixtures/
 *   (LLMPerf leaderboard raw data, Apache-2.0, with its LICENSE and README; the claims file).
 *   Tests use these, so they never depend on anything outside the repo.
 * - {@link sharedDir}: the project's shared folder (DESIGN.md, datasets/) outside the repo.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the repository root (two levels above lib/datasets/). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Absolute path of lib/datasets/test-fixtures/ (committed dataset copies). */
export const FIXTURES_DIR = path.join(REPO_ROOT, 'lib', 'datasets', 'test-fixtures');

/** The published-claims file shipped with the repo (lib/datasets/data/README.md), imported on first start. */
export const CLAIMS_FILE = path.join(REPO_ROOT, 'lib', 'datasets', 'data', 'published-claims-2025.json');

/**
 * The shared folder, resolved in this order: env TOKENPACE_SHARED_DIR (returned as given, resolved
 * to absolute, even if missing); `<repo root>/../shared` if it exists (CI clones the repo beside
 * it); otherwise null. No machine-specific absolute fallback (decision 131).
 * @param env environment to read (default process.env)
 * @param repoRoot the repository root to look beside (default {@link REPO_ROOT})
 * @returns absolute path, or null when no candidate exists
 */
export function sharedDir(env: Readonly<Record<string, string | undefined>> = process.env, repoRoot: string = REPO_ROOT): string | null {
  const fromEnv = env.TOKENPACE_SHARED_DIR;
  if (fromEnv) return path.resolve(fromEnv);
  const beside = path.resolve(repoRoot, '..', 'shared');
  return fs.existsSync(beside) ? beside : null;
}
