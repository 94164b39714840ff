/**
 * A test file's reference requests (referenceRequest) through the production SSRF-guarded fetch,
 * loopback allowed: one fetch per test, its dispatcher closed by an afterEach. Call it before the
 * file's own afterEach, so that hook (closing the servers) runs first (vitest runs after-hooks as
 * a stack).
 */
import { afterEach } from 'vitest';
import type { ProbeRequest } from '../../probe/types';
import { createGuardedFetch, type GuardedFetch } from '../../security/ssrf-guard';
import { referenceRequest } from './reference-request';

/** Registers the afterEach; returns `request(url, maxOutputTokens)`. */
export function useGuardedReferenceRequests(): (url: string, maxOutputTokens: number) => ProbeRequest {
  let guarded: GuardedFetch | null = null;
  afterEach(async () => {
    await guarded?.dispatcher.close();
    guarded = null;
  });
  return (url, maxOutputTokens) => {
    guarded ??= createGuardedFetch({ allowPrivate: true });
    return referenceRequest(url, maxOutputTokens, guarded);
  };
}
