/**
 * Cadence: which workloads an endpoint is probed on in a given slot. The budget per endpoint:
 *
 * - the headline workload (prose-1k) every slot (1,440 probes a day at the default 1-minute slot);
 * - every other workload of the grid that fits the endpoint's context window once per
 *   {@link OTHER_WORKLOAD_PERIOD_MINUTES} (8 times a day, the cadence Artificial Analysis uses),
 *   at a phase that spreads them evenly over the period: an endpoint never gets two of them in
 *   one slot (15 others over 180 minutes: one every 12 minutes), and different endpoints are
 *   shifted against each other so the heavy 10k/100k probes do not all land in the same minute;
 * - calibration endpoints (our own reference servers, no cost) run every grid workload every slot;
 * - the families with their own cadence (`cadenceMinutes`: the prompt-cache pair, issue 25) once per
 *   that many minutes at the endpoint's own phase, calibration endpoints included; only their
 *   scheduled member is due (the cold probe's job sends the warm request itself).
 *
 * Probes of one endpoint never overlap: the probe queue groups jobs per endpoint with group
 * concurrency 1 (workers/tasks/schedule-probes.ts), so a slot's probes run one after another.
 * Pure functions; time is an argument.
 */
import { createHash } from 'node:crypto';
import { ALL_WORKLOADS, fitsContextWindow, type Workload } from './workloads';

/** Period of the non-headline workloads, minutes (1,440 / 180 = 8 probes a day each). */
export const OTHER_WORKLOAD_PERIOD_MINUTES = 180;

/** What the cadence needs to know about an endpoint. */
export interface CadenceEndpoint {
  id: number;
  isCalibration: boolean;
  /** Declared context window, tokens; null when not declared (no ~100k workloads). */
  contextWindowTokens: number | null;
}

/** A stable shift in [0, period) per endpoint, so endpoints do not all probe 10k in one minute. */
function endpointShift(endpointId: number, period: number): number {
  return createHash('sha256').update(`cadence:${endpointId}`).digest().readUInt32BE(0) % period;
}

/**
 * The slugs `endpoint` is due on in the slot starting at `slotStart` (minute resolution).
 * `slotMinutes` is the scheduler's slot length (1 for the default every-minute cron): a phase
 * point anywhere inside (slotStart − slotMinutes, slotStart] counts, so a longer slot never skips
 * a workload. The headline workload is always due; workloads that do not fit the context window never.
 */
export function listDueWorkloadSlugs(endpoint: CadenceEndpoint, slotStart: Date, slotMinutes = 1, workloads: readonly Workload[] = ALL_WORKLOADS): string[] {
  const fittingAll = workloads.filter((w) => w.scheduled && fitsContextWindow(w, endpoint.contextWindowTokens));
  const fitting = fittingAll.filter((w) => w.cadenceMinutes === undefined);
  const minute = Math.floor(slotStart.getTime() / 60_000);
  // Families on their own cadence: due at one phase point per period, the j-th family member 6 + 12j
  // minutes after the endpoint's grid shift, so no two of them and no grid workload share a minute
  // (grid phases sit at multiples of 180 ÷ n from the shift, n = 11 or 15: never 6, 18, 30, ...).
  const gridShift = endpointShift(endpoint.id, OTHER_WORKLOAD_PERIOD_MINUTES);
  // A series member (the cache-lifetime checks, decision 268) is due its offset after its seed's phase point.
  const familyHeads = fittingAll.filter((w) => w.cadenceMinutes !== undefined && w.seriesSeedSlug === undefined);
  const families = fittingAll
    .filter((w) => w.cadenceMinutes !== undefined)
    .filter((w) => {
      const own = w.cadenceMinutes!;
      const j = familyHeads.findIndex((h) => h.slug === (w.seriesSeedSlug ?? w.slug));
      if (j < 0) return false;
      const phase = (gridShift + 6 + 12 * j + (w.seriesOffsetMinutes ?? 0)) % own;
      return (((minute - phase) % own) + own) % own < Math.max(1, slotMinutes);
    })
    .map((w) => w.slug);
  if (endpoint.isCalibration) return [...fitting.map((w) => w.slug), ...families];
  const others = fitting.filter((w) => !w.headline);
  const period = OTHER_WORKLOAD_PERIOD_MINUTES;
  const shift = endpointShift(endpoint.id, period);
  const due = fitting.filter((w) => w.headline).map((w) => w.slug);
  others.forEach((w, i) => {
    const phase = (shift + Math.floor((i * period) / others.length)) % period;
    // minutes since the last phase point, in [0, period)
    const since = (((minute - phase) % period) + period) % period;
    if (since < Math.max(1, slotMinutes)) due.push(w.slug);
  });
  return [...due, ...families];
}

/**
 * Probes and tokens per day for one endpoint at the default 1-minute slot: the cadence budget.
 * Input tokens are the workloads' targets; output tokens the full output budget (an upper bound).
 */
export function describeDailyBudget(endpoint: Pick<CadenceEndpoint, 'isCalibration' | 'contextWindowTokens'>, workloads: readonly Workload[] = ALL_WORKLOADS) {
  const perDay = (w: Workload) => probesPerDay(w, 1, endpoint.isCalibration);
  const fitting = workloads.filter((w) => fitsContextWindow(w, endpoint.contextWindowTokens));
  return {
    probesPerDay: fitting.reduce((s, w) => s + perDay(w), 0),
    inputTokensPerDay: fitting.reduce((s, w) => s + perDay(w) * w.inputTokensTarget, 0),
    outputTokensPerDay: fitting.reduce((s, w) => s + perDay(w) * w.maxOutputTokens, 0),
  };
}

/**
 * Requests a day of workload `w` for one endpoint at a slot of `slotMinutes`: the headline every
 * slot, a family member (scheduled or sent by its partner's job) 1,440 ÷ its cadence, the rest of
 * the grid 1,440 ÷ {@link OTHER_WORKLOAD_PERIOD_MINUTES}; calibration endpoints run the grid every slot.
 */
export function probesPerDay(w: Pick<Workload, 'headline' | 'cadenceMinutes'>, slotMinutes = 1, isCalibration = false): number {
  if (w.cadenceMinutes !== undefined) return 1440 / w.cadenceMinutes;
  if (isCalibration || w.headline) return 1440 / slotMinutes;
  return 1440 / OTHER_WORKLOAD_PERIOD_MINUTES;
}

/**
 * Slot length in minutes implied by a probe cron: N for `*\/N * * * *`, 1 for `* * * * *` and for
 * anything else (other crons fire at most once a minute; a longer real gap only makes the
 * non-headline workloads' windows narrower than the gap, see listDueWorkloadSlugs).
 */
export function slotMinutesForCron(cron: string): number {
  const m = /^\*\/(\d+)\s+\*\s+\*\s+\*\s+\*$/.exec(cron.trim());
  return m ? Math.max(1, Number(m[1])) : 1;
}

/**
 * Whether the probe with key `jobKey` is a fidelity probe: always when its endpoint × workload had
 * no fidelity probe in the last hour (`hadFidelityLastHour` false), otherwise with probability
 * `fraction` (0..1), decided by a hash of the key so the same slot always decides the same way.
 */
export function isFidelityProbe(jobKey: string, hadFidelityLastHour: boolean, fraction: number): boolean {
  if (!hadFidelityLastHour) return true;
  const u = createHash('sha256').update(`fidelity:${jobKey}`).digest().readUInt32BE(0) / 2 ** 32;
  return u < fraction;
}
