#!/usr/bin/env node
// Launcher for the `tokenpace` CLI: runs cli/main.ts under tsx (TypeScript, @/ paths)
// in a child process and mirrors its exit code. Signals reach the child through the process group;
// this launcher only waits, so Ctrl-C is handled once, by the CLI. The child also holds a pipe from
// this launcher (bin/parent-watch.cjs): a kill -9 of the launcher stops the CLI, and with it every
// process `tokenpace start` runs, instead of leaving them orphaned.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const child = spawn(
  process.execPath,
  [
    // `probe` collects start-up garbage once before timing (lib/probe/warm-up.ts settleHeap, decision 185).
    ...(process.argv[2] === 'probe' ? ['--expose-gc'] : []),
    '--require',
    path.join(root, 'bin', 'parent-watch.cjs'),
    '--import',
    'tsx',
    path.join(root, 'cli', 'main.ts'),
    ...process.argv.slice(2),
  ],
  {
    stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
    cwd: process.cwd(),
    env: { ...process.env, TSX_TSCONFIG_PATH: path.join(root, 'tsconfig.json'), TOKENPACE_PARENT_FD: '3' },
    // `probe` leads its own session, so it can raise its own autogroup and nothing else's
    // (lib/probe/probe-priority.ts, decision 184); signals are forwarded below, fd 3 covers kill -9.
    detached: process.argv[2] === 'probe',
  },
);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
