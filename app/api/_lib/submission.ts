/**
 * Shared steps of the submission routes: the SSRF pre-check of a submitted base URL (400 naming
 * `baseUrl` and the reason) and the owner-or-admin lookup of a submitted endpoint.
 */
import { getSubmittedEndpoint, type SubmittedEndpoint } from '@/db/queries/submissions';
import type { Db } from '@/db/client';
import type { AccountUser } from '@/db/queries/accounts';
import { getEnv } from '@/lib/env';
import { checkUrl, InvalidUrlError, SsrfBlockedError } from '@/lib/security/ssrf-guard';
import { ApiError } from './respond';

/**
 * Checks a submitted base URL with the SSRF guard (loopback/private only with
 * TOKENPACE_ALLOW_PRIVATE=1). Throws ApiError 400 `baseUrl: <reason>` when refused.
 */
export async function checkSubmittedUrl(url: string): Promise<void> {
  try {
    await checkUrl(url, { allowPrivate: getEnv().TOKENPACE_ALLOW_PRIVATE });
  } catch (e) {
    let message: string;
    if (e instanceof SsrfBlockedError)
      message = `refused: ${e.message.replace(/^blocked: /, '')} (only public addresses can be probed)`; // names only, never resolved addresses
    else if (e instanceof InvalidUrlError) message = `invalid URL: ${e.reason}`;
    else {
      const code = (e as NodeJS.ErrnoException)?.code;
      message = code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA' ? 'the host name does not resolve' : 'the host name could not be checked';
    }
    throw new ApiError('bad_request', `baseUrl: ${message}`, 'baseUrl', { fields: [{ field: 'baseUrl', message }] });
  }
}

/**
 * The submitted endpoint `id` if `user` owns it (or is an admin). Unknown, deleted and other
 * people's endpoints all answer 404, so ids of private submissions are not confirmed to strangers.
 */
export async function getEndpointForUser(db: Db, id: number, user: AccountUser): Promise<SubmittedEndpoint> {
  const endpoint = await getSubmittedEndpoint(db, id);
  if (!endpoint || (endpoint.ownerUserId !== user.id && user.role !== 'admin')) throw new ApiError('not_found', `endpoint ${id} not found`, 'id');
  return endpoint;
}
