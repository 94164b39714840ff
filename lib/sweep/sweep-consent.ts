/**
 * Who must agree before a sweep may load an endpoint (issue 19, decision 160), as one rule used
 * by the API (queueing), the database transaction that queues, the worker's claim and the check
 * before every level:
 * 1. the endpoint is approved and listed (`active`): never a pending, rejected, paused or deleted one;
 * 2. its owner (or an admin) enabled sweeps and requested limits (maxConcurrency, durationMs, maxLevels);
 * 3. an admin consented to limits that cover the requested ones, for the URL the endpoint has now
 *    (a changed URL is a different target and needs a new consent);
 * 4. the sweep asked for lies within those limits and within what one worker runs
 *    (MAX_WORKER_SWEEP_CONCURRENCY).
 * Framework-free; the caller loads the rows.
 */

/** Highest concurrency one worker process runs for one sweep; consent above it is refused. */
export const MAX_WORKER_SWEEP_CONCURRENCY = 256;
/** Most levels one sweep may have. */
export const MAX_SWEEP_LEVELS = 16;

/** The stored consent columns (db sweep_settings). */
export interface SweepConsentRow {
  enabled: boolean;
  maxConcurrency: number;
  durationMs: number;
  maxLevels: number;
  approvedByUserId: string | null;
  approvedAt: Date | null;
  approvedMaxConcurrency: number | null;
  approvedDurationMs: number | null;
  approvedMaxLevels: number | null;
  approvedBaseUrl: string | null;
}

/** Why a sweep is refused: stable words for API clients and the sweep's error message. */
export type SweepRefusal = 'endpoint_not_approved' | 'no_owner_consent' | 'no_admin_consent' | 'limits_not_consented' | 'url_changed' | 'outside_limits';

/** The verdict: the limits in force, or the refusal with a sentence naming it. */
export type SweepConsentVerdict =
  { ok: true; limits: { maxConcurrency: number; durationMs: number; maxLevels: number } } | { ok: false; reason: SweepRefusal; message: string };

/**
 * Checks rules 1-3 (and 4 when `plan` is given). `endpoint.status` is the endpoints.status word;
 * `settings` null means nobody consented. Pure; never throws.
 */
export function checkSweepConsent(
  endpoint: { status: string; baseUrl: string },
  settings: SweepConsentRow | null,
  plan?: { concurrencyLevels: readonly number[]; durationMs: number },
): SweepConsentVerdict {
  const no = (reason: SweepRefusal, message: string): SweepConsentVerdict => ({ ok: false, reason, message });
  if (endpoint.status !== 'active') return no('endpoint_not_approved', `the endpoint is ${endpoint.status}: sweeps run only on approved, active endpoints`);
  if (!settings?.enabled) return no('no_owner_consent', 'sweeps of this endpoint are not enabled: its owner or an admin must consent first (sweep-settings)');
  if (!settings.approvedByUserId || settings.approvedMaxConcurrency === null || settings.approvedDurationMs === null || settings.approvedMaxLevels === null) {
    return no('no_admin_consent', 'the requested sweep limits wait for an admin’s consent (sweep-settings, posted by an admin)');
  }
  if (settings.approvedBaseUrl !== endpoint.baseUrl)
    return no('url_changed', 'the endpoint’s URL changed since an admin consented to its sweep limits: an admin must consent again');
  const over: string[] = [];
  if (settings.maxConcurrency > settings.approvedMaxConcurrency) over.push(`maxConcurrency ${settings.maxConcurrency} > ${settings.approvedMaxConcurrency}`);
  if (settings.durationMs > settings.approvedDurationMs) over.push(`durationS ${settings.durationMs / 1000} > ${settings.approvedDurationMs / 1000}`);
  if (settings.maxLevels > settings.approvedMaxLevels) over.push(`maxLevels ${settings.maxLevels} > ${settings.approvedMaxLevels}`);
  if (over.length)
    return no('limits_not_consented', `the requested limits exceed what an admin consented to (${over.join(', ')}): an admin must consent to them`);
  const limits = {
    maxConcurrency: Math.min(settings.maxConcurrency, MAX_WORKER_SWEEP_CONCURRENCY),
    durationMs: settings.durationMs,
    maxLevels: Math.min(settings.maxLevels, MAX_SWEEP_LEVELS),
  };
  if (plan) {
    const top = Math.max(...plan.concurrencyLevels);
    if (top > limits.maxConcurrency) return no('outside_limits', `concurrency ${top} is above the consented maxConcurrency ${limits.maxConcurrency}`);
    if (plan.concurrencyLevels.length > limits.maxLevels)
      return no('outside_limits', `${plan.concurrencyLevels.length} levels are more than the consented maxLevels ${limits.maxLevels}`);
    if (plan.durationMs > limits.durationMs)
      return no('outside_limits', `a steady window of ${plan.durationMs / 1000} s is longer than the consented ${limits.durationMs / 1000} s`);
  }
  return { ok: true, limits };
}
