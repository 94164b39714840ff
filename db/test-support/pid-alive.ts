/**
 * True when a process with id `pid` exists and this process may signal it (signal 0 is sent:
 * nothing is delivered). For tests that check a server or child is gone; a pid the kernel has
 * reused reads as alive (db/embedded.ts compares start times where that matters).
 */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
