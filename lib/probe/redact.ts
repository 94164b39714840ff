/**
 * Redaction of what a probe keeps or prints from a server (error messages, answer text, finish
 * reasons, evidence, recorded streams): the request's own secrets (API key, AWS secret, session
 * token) and every secret configured in the environment (lib/env configuredSecrets), in each
 * spelling lib/security redactSecrets knows (raw, URL-encoded, JSON-escaped, base64/base64url,
 * hex, split by JSON `\u` escapes), and anything that looks like a credential a server echoed back
 * (bearer tokens, `sk-` style keys, AWS access key ids, Google API keys). Issue 19 #12, decision 165.
 */
import { configuredSecrets } from '../env';
import { createSecretRedactor, REDACTED, redactSecrets } from '../security/secrets';

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
  return redactCredentialShapes(redactSecrets(text, secrets));
}

/** The shortest text a credential pattern can match ("Bearer " + 8 characters). */
const MIN_PATTERN_LENGTH = 15;

function redactCredentialShapes(text: string): string {
  if (text.length < MIN_PATTERN_LENGTH) return text;
  let out = text;
  for (const pattern of CREDENTIAL_PATTERNS)
    out = out.replace(pattern, (m, scheme: string) => (/^(Bearer|Basic)$/.test(scheme) ? `${scheme} ${REDACTED}` : REDACTED));
  return out;
}

/**
 * Redacts, IN PLACE, every string inside `value` (plain objects and arrays, deeply; other objects
 * such as Dates and byte arrays are left alone) with {@link redactProbeText}'s rules for the given
 * secrets plus the configured ones; returns `value` (a string is returned redacted). The one step
 * every probe result goes through before anything of it is stored (lib/probe/probe-endpoint:
 * scheduled probes, verifications, sweeps). In place so that a result's timeline costs no copies:
 * it runs on the probe loop, after the stream ended, beside other streams.
 */
export function redactStoredStrings<T>(value: T, secrets: readonly (string | null | undefined)[]): T {
  // Spellings computed once per result; strings too short to hold any spelling or credential shape
  // (kinds, channels, short flags) are passed by untouched.
  const redactor = createSecretRedactor([...secrets, ...configuredSecrets()]);
  const shortest = Math.min(MIN_PATTERN_LENGTH, redactor.minLength || MIN_PATTERN_LENGTH);
  const text = (v: string) => (v.length < shortest ? v : redactCredentialShapes(redactor.redact(v)));
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (typeof x === 'string') v[i] = text(x);
        else if (x !== null && typeof x === 'object') walk(x);
      }
      return;
    }
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto !== Object.prototype && proto !== null) return;
    const o = v as Record<string, unknown>;
    for (const k in o) {
      const x = o[k];
      if (typeof x === 'string') o[k] = text(x);
      else if (x !== null && typeof x === 'object') walk(x);
    }
  };
  if (typeof value === 'string') return text(value) as T;
  if (value !== null && typeof value === 'object') walk(value);
  return value;
}
