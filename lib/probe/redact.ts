/**
 * Redaction of what a probe keeps or prints from a server (error messages, recorded streams):
 * the request's own secrets (API key, AWS secret, session token; lib/security redactSecrets also
 * catches their URL- and JSON-escaped spellings) and anything that looks like a credential a
 * server echoed back (bearer tokens, `sk-` style keys, AWS access key ids, Google API keys).
 */
import { REDACTED, redactSecrets } from '../security/secrets';

const CREDENTIAL_PATTERNS: RegExp[] = [
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/-]{8,}=*/g,
  /\b(sk|pk|rk)-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_-]{16,}/g,
  /\b(AKIA|ASIA)[A-Z0-9]{12,124}\b/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\b(gsk|xai|hf|nvapi|pplx|csk)[_-][A-Za-z0-9_-]{16,}/g,
];

/**
 * `text` with every given secret and every credential-looking token replaced by `[REDACTED]`.
 * Pure; `secrets` entries that are null/empty are ignored.
 */
export function redactProbeText(text: string, secrets: readonly (string | null | undefined)[]): string {
  let out = redactSecrets(text, secrets);
  for (const pattern of CREDENTIAL_PATTERNS) out = out.replace(pattern, (m, scheme: string) => (/^(Bearer|Basic)$/.test(scheme) ? `${scheme} ${REDACTED}` : REDACTED));
  return out;
}
