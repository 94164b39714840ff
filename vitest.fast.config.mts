import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// `npm run check`'s fast unit tests: test files beside framework-free code (lib/) that start no
// database, process or server and wait on no clock. Chosen by what the file does, so a new test
// joins or leaves by itself; everything stays in `npm test` (vitest.config.mts).
const SLOW =
  /createTestDatabase|startTestPostgres|child_process|startReferenceServer|createServer|listen\(|setTimeout\(|vi\.useFakeTimers|worker_threads|createProbePool|replayCaseThroughProbe|performance\.now\(/;
const root = import.meta.dirname;
const fast: string[] = [];
const walk = (dir: string) => {
  for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) walk(rel);
    else if (e.name.endsWith('.test.ts') && !SLOW.test(fs.readFileSync(path.join(root, rel), 'utf8'))) fast.push(rel);
  }
};
walk('lib');

export default defineConfig({
  resolve: { alias: { '@': path.resolve(root) } },
  test: { include: fast, testTimeout: 20_000, pool: 'forks' },
});
