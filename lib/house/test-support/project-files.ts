/**
 * The project's own files, as paths relative to `root` with forward slashes: what git tracks plus
 * untracked files that .gitignore does not exclude (`git ls-files --cached --others
 * --exclude-standard`). So build output of any name (`.next-e2e-3300/`, a `test-results-*`
 * folder) never counts as the tree, as it did for a walk that skipped a fixed list of folder
 * names. Without git (an unpacked archive) it walks the tree, skipping `skipDirs`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export function projectFiles(root: string, skipDirs: ReadonlySet<string>): string[] {
  try {
    const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, maxBuffer: 64 << 20 });
    // a tracked file deleted in the work tree is still listed: keep only what exists
    return out
      .toString('utf8')
      .split('\0')
      .filter((rel) => rel !== '' && fs.existsSync(path.join(root, rel)));
  } catch {
    const out: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (skipDirs.has(entry.name)) continue;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else out.push(path.relative(root, full).split(path.sep).join('/'));
      }
    };
    walk(root);
    return out;
  }
}
