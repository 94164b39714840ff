/**
 * Prompts of the cache-lifetime series (issue 25 item 1, decision 268): a seed request and checks
 * after increasing gaps, all opening with the same ~1,050-token prefix (above every provider's
 * 1,024-token caching threshold) and each closing with its own question.
 *
 * The checks run as their own probe jobs minutes after the seed (a job never waits: probes of one
 * endpoint run one at a time), so the prefix cannot come from a random draw held in one job's
 * memory. Its key is an HMAC-SHA256 of the series (endpoint and seed slot) under the worker's
 * secret (TOKENPACE_SECRET_KEY): unpredictable without that secret (decision 173's requirement:
 * nothing public predicts a prompt), the same for every member of one series. The prefix's
 * SHA-256 is kept in each member's evidence so a check whose predecessor used another prefix
 * (another secret, a restart without one) is not sent. Pure.
 */
import { createHash, createHmac } from 'node:crypto';
import { buildPrompt, type BuiltPrompt } from './workloads';

/** o200k tokens of the series' shared prefix. */
export const CACHE_LIFETIME_PREFIX_TOKENS = 1_050;

/** The key of the series of `endpointId` seeded in the slot starting at `seedSlot` (ISO 8601), under `secret`. */
export function cacheLifetimeKey(secret: Buffer, endpointId: number, seedSlot: string): string {
  return createHmac('sha256', secret).update(`cache-lifetime\u0000${endpointId}\u0000${seedSlot}`).digest('hex');
}

/** The prompt of member `memberSlug` of the series keyed `key`, and the SHA-256 of the shared prefix. */
export function buildCacheLifetimePrompt(memberSlug: string, key: string): BuiltPrompt & { prefixSha256: string } {
  const prefix = buildPrompt({ slug: 'cache-lifetime', category: 'prose', inputTokensTarget: CACHE_LIFETIME_PREFIX_TOKENS }, key).prompt;
  // The question differs per member, so no two answers are the same (repeated_answer, decision 171).
  const question = buildPrompt({ slug: `${memberSlug}-question`, category: 'prose', inputTokensTarget: 50 }, key).prompt;
  const prompt = `${prefix}\n\nQuestion: ${question}`;
  return {
    prompt,
    promptHash: createHash('sha256').update(prompt).digest('hex'),
    fidelity: null,
    prefixSha256: createHash('sha256').update(prefix).digest('hex'),
  };
}
