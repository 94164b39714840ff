/**
 * Personal API tokens: `tp_` + 43 base64url characters (32 random bytes). Only the SHA-256 hex of
 * a token is stored (api_tokens.token_hash); the token itself is shown once when created.
 */
import { createHash, randomBytes } from 'node:crypto';

/** Prefix of every personal API token (lets secret scanners and people recognise one). */
export const API_TOKEN_PREFIX = 'tp_';

const TOKEN_PATTERN = /^tp_[A-Za-z0-9_-]{43}$/;

/** A fresh token, its SHA-256 hex and a display prefix (first 10 characters). */
export function generateApiToken(): { token: string; tokenHash: string; prefix: string } {
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, tokenHash: hashApiToken(token), prefix: token.slice(0, 10) };
}

/** SHA-256 hex of a token (the value looked up in api_tokens.token_hash). */
export function hashApiToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** True when `value` has the shape of a personal API token (cheap check before any lookup). */
export function looksLikeApiToken(value: string): boolean {
  return TOKEN_PATTERN.test(value);
}
