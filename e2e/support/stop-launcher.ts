import type { ChildProcess } from 'node:child_process';
import { expect } from '@playwright/test';

/**
 * Teardown of a spec that ran `tokenpace start`: SIGTERM to the launcher if it still runs, then
 * up to 60 s for it to exit; a launcher that outlives the wait is not an error here (the spec's
 * own cleanup goes on).
 */
export async function stopLauncher(launcher: ChildProcess | null): Promise<void> {
  if (launcher && launcher.exitCode === null) launcher.kill('SIGTERM');
  await expect
    .poll(() => launcher?.exitCode !== null, { timeout: 60_000 })
    .toBe(true)
    .catch(() => {});
}
