/**
 * Stops child processes a test started: SIGTERM to each still running, SIGKILL after `graceMs`
 * (default 15 s) if one has not exited; resolves when all have exited.
 */
import type { ChildProcess } from 'node:child_process';

export function stopChildren(children: readonly ChildProcess[], graceMs = 15_000): Promise<void> {
  return Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  ).then(() => undefined);
}
