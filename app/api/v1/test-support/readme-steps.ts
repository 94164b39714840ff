/**
 * Test support (vitest only): the shell steps the README gives between its markers
 * `<!-- <name>-steps:start -->` and `<!-- <name>-steps:end -->` (one ```bash block), exactly as
 * written, so a test runs what a reader would. Throws when the README has no such steps.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The bash block of the README's `<name>` steps, e.g. readmeSteps('journalist'). */
export function readmeSteps(name: string): string {
  const readme = fs.readFileSync(path.join(import.meta.dirname, '..', '..', '..', '..', 'README.md'), 'utf8');
  const m = new RegExp(`<!-- ${name}-steps:start -->\\s*\`\`\`bash\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${name}-steps:end -->`).exec(readme);
  if (!m) throw new Error(`README.md has no ${name} steps between the markers`);
  return m[1]!;
}
