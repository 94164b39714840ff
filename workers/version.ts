import fs from 'node:fs';
import path from 'node:path';

/** Worker version recorded in every measurement: package version (+ git commit when known). */
export function getWorkerVersion(): string {
  const root = path.resolve(__dirname, '..');
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  let commit = '';
  try {
    const head = fs.readFileSync(path.join(root, '.git', 'HEAD'), 'utf8').trim();
    const ref = head.startsWith('ref: ') ? fs.readFileSync(path.join(root, '.git', head.slice(5)), 'utf8').trim() : head;
    commit = `+${ref.slice(0, 7)}`;
  } catch {
    // not a git checkout (e.g. a packaged install): the package version alone identifies it
  }
  return `${pkg.version}${commit}`;
}
