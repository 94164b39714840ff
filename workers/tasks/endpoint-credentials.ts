/**
 * The credentials a probe or a sweep sends to an endpoint, by one rule for both (decision 083): a
 * key submitted with the endpoint (stored encrypted, decrypted here), or, for catalog endpoints the
 * operator runs, the environment variable the catalog names. Keys are never logged or returned.
 */
import { readApiKeyVariable } from '@/lib/env';
import { decryptSecret } from '@/lib/security/secrets';

/**
 * The endpoint's API key: its submitted key (decrypted with `secretKey`), else, when the operator's
 * credentials may be used (`operatorCredentials`, catalog endpoints only), the value of its
 * `apiKeyEnv` variable; null when there is none. Throws Error when a key is stored but no
 * TOKENPACE_SECRET_KEY is configured (the job fails loudly rather than probing without its key).
 */
export function resolveEndpointApiKey(
  endpoint: { apiKeyEncrypted: string | null; apiKeyEnv: string | null },
  secretKey: Buffer | null,
  operatorCredentials: boolean,
): string | null {
  if (endpoint.apiKeyEncrypted) {
    if (!secretKey) throw new Error('endpoint has an encrypted API key but TOKENPACE_SECRET_KEY is not configured');
    return decryptSecret(endpoint.apiKeyEncrypted, secretKey);
  }
  return operatorCredentials && endpoint.apiKeyEnv ? readApiKeyVariable(endpoint.apiKeyEnv) : null;
}

/**
 * AWS credentials for Bedrock endpoints from the usual variables (AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, optional AWS_SESSION_TOKEN) for `region`; null when incomplete, so the
 * probe records the provider's 403 as an http_error instead of guessing.
 */
export function resolveAwsCredentials(region: string | null) {
  const accessKeyId = readApiKeyVariable('AWS_ACCESS_KEY_ID');
  const secretAccessKey = readApiKeyVariable('AWS_SECRET_ACCESS_KEY');
  if (!accessKeyId || !secretAccessKey) return null;
  return { accessKeyId, secretAccessKey, sessionToken: readApiKeyVariable('AWS_SESSION_TOKEN'), region };
}
