/**
 * Test support: every route handler module under app/api, found on disk, with a concrete URL for
 * its dynamic segments — so canary and fuzz tests cover routes added later without being edited.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface RouteEntry {
  /** e.g. /api/v1/endpoints/[id]/history */
  pattern: string;
  /** file path relative to the repo root */
  file: string;
  /** dynamic segment names, e.g. ['id'] */
  params: string[];
}

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** All app/api route files, sorted by pattern. */
export function listApiRoutes(): RouteEntry[] {
  const out: RouteEntry[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === 'route.ts') {
        const rel = path.relative(path.join(ROOT, 'app'), path.dirname(p)).split(path.sep);
        const segs = rel.filter((s) => !/^\(.*\)$/.test(s));
        out.push({
          pattern: `/${segs.join('/')}`,
          file: path.relative(ROOT, p),
          params: segs.filter((s) => s.startsWith('[')).map((s) => s.replace(/^\[(\.\.\.)?|\]$/g, '')),
        });
      }
    }
  };
  walk(path.join(ROOT, 'app', 'api'));
  return out.sort((a, b) => a.pattern.localeCompare(b.pattern));
}

/** Fills a pattern's segments: `values[name]` (catch-all segments may hold a/b paths). */
export function fillPattern(pattern: string, values: Record<string, string>): string {
  return pattern.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, (_, name: string) => values[name] ?? 'x');
}

/** Imports a route module by its repo-relative file. */
export async function importRoute(file: string): Promise<Record<string, unknown>> {
  return (await import(/* @vite-ignore */ path.join(ROOT, file))) as Record<string, unknown>;
}
