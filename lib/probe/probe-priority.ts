/**
 * The probing process asks the scheduler for a higher priority (decision 184): on a shared machine
 * its stamps are late mostly because it waits in the run queue behind other work (issue 21:
 * three busy loops beside `tokenpace probe`). A lower nice value shortens that wait; it does not
 * replace the error bound, which still measures how late every stamp may be and refuses to rank
 * what it cannot vouch for (decisions 180, 181, 183).
 *
 * Linux nice values are per thread, and threads inherit their creator's: call this first in the
 * process, before the probe pool's threads and libuv's thread pool start.
 *
 * With autogroup scheduling (Linux's default on most distributions, `/proc/sys/kernel/
 * sched_autogroup_enabled`), CPU time is first shared between sessions and nice only orders threads
 * inside one: a busy loop started from another shell takes half the CPU whatever our nice. So a
 * probing process that leads its own session (the launcher and `tokenpace start` spawn it so) also
 * sets its autogroup's nice (`/proc/self/autogroup`), which touches no other session.
 *
 * `TOKENPACE_PROBE_NICE`: the nice value to ask for (−20…19, default −10), or `off` to leave the
 * process as it is. Lowering nice needs CAP_SYS_NICE (root, or a raised RLIMIT_NICE); without it the
 * process keeps its priority and says so in the returned note.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

/** Default nice value of a probing process. */
export const DEFAULT_PROBE_NICE = -10;

/** How much further the calibration reference server's nice goes below the probe's (decision 304). */
export const REFERENCE_NICE_BELOW_PROBE = 5;

/**
 * The nice value for the calibration reference server of `tokenpace start`, given the probe's
 * (`parseProbeNice`): REFERENCE_NICE_BELOW_PROBE below it, at least −20; null when the probe's is
 * left alone. The server's write log is calibration's truth, and its stamps are taken just before
 * its writes: a server preempted between the two writes late while its log says on time, which
 * calibration would read as probe error (decision 304). Above the probe, the server is the last to
 * wait for a CPU, as in `bench:probe` (decision 184).
 */
export function referenceNiceFor(probeNice: number | null): number | null {
  return probeNice === null ? null : Math.max(-20, probeNice - REFERENCE_NICE_BELOW_PROBE);
}

/** What {@link raiseProbePriority} did: the nice value in effect and, when it could not, why. */
export interface ProbePriority {
  nice: number;
  /** the session autogroup's nice after the call; null when there is none or it is not ours */
  autogroupNice: number | null;
  requested: number | null;
  raised: boolean;
  note: string | null;
}

/**
 * Parses `TOKENPACE_PROBE_NICE` (`off` → null, unset → {@link DEFAULT_PROBE_NICE}); throws naming the
 * variable on anything but an integer in −20…19.
 */
export function parseProbeNice(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return DEFAULT_PROBE_NICE;
  if (value.trim().toLowerCase() === 'off') return null;
  const n = Number(value);
  if (!Number.isInteger(n) || n < -20 || n > 19) throw new Error(`TOKENPACE_PROBE_NICE: expected an integer from -20 to 19, or "off" (got "${value}")`);
  return n;
}

/**
 * Lowers this thread's nice value to the requested one when it is higher (never raises it: an
 * operator who started the probe at −15 keeps −15). Never throws for a refused request.
 */
export function raiseProbePriority(value: string | undefined = process.env.TOKENPACE_PROBE_NICE): ProbePriority {
  const requested = parseProbeNice(value);
  const current = os.getPriority();
  if (requested === null) return { nice: current, autogroupNice: readAutogroupNice(), requested, raised: false, note: null };
  const notes: string[] = [];
  let raised = false;
  if (current > requested) {
    try {
      os.setPriority(requested);
      raised = true;
    } catch (error) {
      notes.push(`could not lower nice to ${requested} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); probing at nice ${current}`);
    }
  }
  const group = readAutogroupNice();
  if (group !== null && group > requested && leadsOwnSession()) {
    try {
      writeFileSync('/proc/self/autogroup', String(requested));
    } catch (error) {
      notes.push(`could not lower the session's autogroup nice to ${requested} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }
  return { nice: os.getPriority(), autogroupNice: readAutogroupNice(), requested, raised, note: notes.length ? notes.join('; ') : null };
}

/** This process's autogroup nice (`/autogroup-N nice K`), or null without autogroup scheduling. */
export function readAutogroupNice(): number | null {
  try {
    const m = /nice (-?\d+)/.exec(readFileSync('/proc/self/autogroup', 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** True when this process is its session's leader (its autogroup holds only what it started). */
function leadsOwnSession(): boolean {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // fields after the parenthesised command: state ppid pgrp session ...
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(rest[3]) === process.pid;
  } catch {
    return false;
  }
}
