/**
 * The verification probe of a submission (decision record 030): one short streamed request, run
 * inline by the route handler through the SSRF-guarded fetch, with tight deadlines (30 s total).
 * Its result is stored in endpoint_verifications and returned to the submitter. The API key is
 * the plaintext just submitted, or the stored envelope decrypted here (the only place in the web
 * process that decrypts), and it never reaches a log, an error message or a response.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '@/db/client';
import { insertVerification } from '@/db/queries/submissions';
import { getEnv } from '@/lib/env';
import { probeEndpoint } from '@/lib/probe/probe-endpoint';
import type { FetchLike, Protocol } from '@/lib/probe/types';
import type { ServiceTierDeclaration } from '@/lib/probe/service-tier';
import { buildPrompt } from '@/lib/probe/workloads';
import { decryptSecret, parseEncryptionKey, redactSecrets } from '@/lib/security/secrets';
import { createGuardedFetch } from '@/lib/security/ssrf-guard';

/** Deadlines of a verification probe (ms / bytes): short, so the form answers within ~30 s. */
export const VERIFICATION_DEADLINES = { ttftMs: 20_000, idleMs: 10_000, totalMs: 30_000, maxBytes: 2 * 1024 * 1024 };
/** Output budget of a verification probe (tokens): enough to see a speed, cheap for the provider. */
export const VERIFICATION_MAX_OUTPUT_TOKENS = 128;

let guardedFetch: FetchLike | null = null;
let guardedFetchPrivate: boolean | null = null;

/** The process's guarded fetch (loopback/private only with TOKENPACE_ALLOW_PRIVATE=1). */
function getGuardedFetch(): FetchLike {
  const allowPrivate = getEnv().TOKENPACE_ALLOW_PRIVATE;
  if (!guardedFetch || guardedFetchPrivate !== allowPrivate) {
    guardedFetch = createGuardedFetch({ allowPrivate }) as unknown as FetchLike;
    guardedFetchPrivate = allowPrivate;
  }
  return guardedFetch;
}

/** What the submitter sees of a verification run (lib/api/response-schemas verificationSchema: the same fields as the stored row). */
export interface VerificationView {
  id: number;
  endpointId: number;
  /** when the probe started (an ISO 8601 string in JSON) */
  startedAt: Date;
  outcome: 'success' | 'error';
  errorKind: string | null;
  errorMessage: string | null;
  httpStatus: number | null;
  ttftMs: number | null;
  e2eMs: number | null;
  outputTokens: number | null;
  outputTokensPerSecond: number | null;
}

/** The configured AES-256-GCM key, or throws (the web process must have it to take API keys). */
export function requireSecretKey(): Buffer {
  const value = getEnv().TOKENPACE_SECRET_KEY;
  if (!value) throw new Error('TOKENPACE_SECRET_KEY is not set; API keys cannot be stored');
  return parseEncryptionKey(value);
}

/**
 * Runs one verification probe against `target` and stores the result. `apiKey` is the plaintext
 * key when the caller has it; otherwise `apiKeyEncrypted` is decrypted here. Never throws for
 * endpoint failures (they are results); `fetch` is injectable for tests.
 */
export async function runVerification(
  db: Db,
  target: {
    id: number;
    protocol: Protocol;
    baseUrl: string;
    apiModelId: string;
    apiKey?: string | null;
    apiKeyEncrypted?: string | null;
    /** the endpoint's declared tier, sent as every probe of it sends it (decision 262) */
    serviceTier?: ServiceTierDeclaration | null;
  },
  fetch: FetchLike = getGuardedFetch(),
): Promise<VerificationView> {
  const apiKey = target.apiKey ?? (target.apiKeyEncrypted ? decryptSecret(target.apiKeyEncrypted, requireSecretKey()) : null);
  const startedAt = new Date();
  const { prompt } = buildPrompt(
    { slug: 'verification', category: 'prose', inputTokensTarget: 120 },
    `verify:${target.id}:${startedAt.toISOString()}:${randomBytes(16).toString('hex')}`,
  );
  const result = await probeEndpoint({
    protocol: target.protocol,
    url: target.baseUrl,
    model: target.apiModelId,
    apiKey,
    prompt,
    maxOutputTokens: VERIFICATION_MAX_OUTPUT_TOKENS,
    serviceTier: target.serviceTier ?? null,
    deadlines: VERIFICATION_DEADLINES,
    fetch,
  });
  const view: Omit<VerificationView, 'id' | 'endpointId' | 'startedAt'> = {
    outcome: result.outcome,
    errorKind: result.errorKind,
    // probeEndpoint already redacts the key; redact again (URL-encoded/JSON-escaped spellings too).
    errorMessage: result.errorMessage ? redactSecrets(result.errorMessage, [apiKey]).slice(0, 1000) : null,
    httpStatus: result.httpStatus,
    ttftMs: result.ttftMs,
    e2eMs: result.e2eMs,
    outputTokens: result.outputTokensReported ?? result.outputTokensO200k,
    outputTokensPerSecond: result.outputTokensPerSecond ?? result.outputTokensPerSecondO200k,
  };
  const { id } = await insertVerification(db, { endpointId: target.id, startedAt, ...view });
  return { id, endpointId: target.id, startedAt, ...view };
}
