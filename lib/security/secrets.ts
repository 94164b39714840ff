/**
 * Secrets at rest (DESIGN §5, decision record 011): provider API keys are stored as AES-256-GCM
 * envelopes and decrypted only inside the worker.
 *
 * Token format (ASCII, colon-separated, standard base64 with padding):
 *   v1:<kid>:<iv>:<tag>:<ciphertext>
 *   kid        8 hex chars: first 4 bytes of SHA-256(key) — identifies the key, reveals nothing usable
 *   iv         12 random bytes
 *   tag        16-byte GCM authentication tag
 *   ciphertext UTF-8 plaintext encrypted with AES-256-GCM; AAD = "tokenpace:v1:<kid>"
 *              (so the version and key id are authenticated too)
 * Errors never contain plaintext, key material or the token body.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const ENV_NAME = 'TOKENPACE_SECRET_KEY';

/**
 * Thrown by `decryptSecret` / `reencryptSecret`. `kind`:
 * - `'malformed'`  the token is not a `v1:kid:iv:tag:ct` envelope (wrong version, bad base64, sizes);
 * - `'wrong_key'`  the token's key id differs from the key given;
 * - `'tampered'`   key id matches but GCM authentication failed (token modified, or key collision).
 */
export class SecretDecryptError extends Error {
  constructor(
    readonly kind: 'malformed' | 'wrong_key' | 'tampered',
    message: string,
  ) {
    super(message);
    this.name = 'SecretDecryptError';
  }
}

function assertKey(key: Buffer, what = 'key'): void {
  if (!Buffer.isBuffer(key) || key.length !== KEY_BYTES) {
    throw new TypeError(`${what} must be a ${KEY_BYTES}-byte Buffer (got ${Buffer.isBuffer(key) ? `${key.length} bytes` : typeof key})`);
  }
}

/** Key id: 8 lower-case hex chars = first 4 bytes of SHA-256(key). Throws TypeError if key is not 32 bytes. */
export function keyFingerprint(key: Buffer): string {
  assertKey(key);
  return crypto.createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/**
 * Encrypts a UTF-8 string with AES-256-GCM under a fresh random 12-byte IV.
 * `key`: 32-byte Buffer (TypeError otherwise). Returns `v1:<kid>:<iv b64>:<tag b64>:<ct b64>`.
 * Two calls with the same input give different tokens.
 */
export function encryptSecret(plain: string, key: Buffer): string {
  assertKey(key);
  if (typeof plain !== 'string') throw new TypeError('plain must be a string');
  const kid = keyFingerprint(key);
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(`tokenpace:${VERSION}:${kid}`));
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, kid, iv.toString('base64'), tag.toString('base64'), ct.toString('base64')].join(':');
}

const B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function strictB64(s: string, field: string, expectedLen?: number): Buffer {
  if (!B64.test(s)) throw new SecretDecryptError('malformed', `malformed secret token: ${field} is not base64`);
  const b = Buffer.from(s, 'base64');
  if (expectedLen !== undefined && b.length !== expectedLen) {
    throw new SecretDecryptError('malformed', `malformed secret token: ${field} must be ${expectedLen} bytes (got ${b.length})`);
  }
  return b;
}

interface Envelope {
  kid: string;
  iv: Buffer;
  tag: Buffer;
  ct: Buffer;
}

function parseToken(token: string): Envelope {
  if (typeof token !== 'string') throw new SecretDecryptError('malformed', 'malformed secret token: not a string');
  const parts = token.trim().split(':');
  if (parts[0] !== VERSION) {
    throw new SecretDecryptError('malformed', `malformed secret token: unsupported version "${String(parts[0]).slice(0, 8)}" (expected ${VERSION})`);
  }
  if (parts.length !== 5) throw new SecretDecryptError('malformed', `malformed secret token: expected 5 fields, got ${parts.length}`);
  const [, kid = '', iv = '', tag = '', ct = ''] = parts;
  if (!/^[0-9a-f]{8}$/.test(kid)) throw new SecretDecryptError('malformed', 'malformed secret token: key id must be 8 hex chars');
  return { kid, iv: strictB64(iv, 'iv', IV_BYTES), tag: strictB64(tag, 'tag', TAG_BYTES), ct: strictB64(ct, 'ciphertext') };
}

/**
 * Decrypts a token made by `encryptSecret`. `key`: 32-byte Buffer. Returns the UTF-8 plaintext.
 * Throws `SecretDecryptError` with kind 'malformed' | 'wrong_key' | 'tampered' (see class doc);
 * TypeError if key is not 32 bytes.
 */
export function decryptSecret(token: string, key: Buffer): string {
  assertKey(key);
  const env = parseToken(token);
  const kid = keyFingerprint(key);
  if (env.kid !== kid) {
    throw new SecretDecryptError('wrong_key', `secret was encrypted with key ${env.kid}, but the configured ${ENV_NAME} is key ${kid}`);
  }
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, env.iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(`tokenpace:${VERSION}:${env.kid}`));
  decipher.setAuthTag(env.tag);
  try {
    return Buffer.concat([decipher.update(env.ct), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretDecryptError('tampered', `secret token failed authentication (modified or corrupted; key ${kid})`);
  }
}

/**
 * Re-encrypts a token from `oldKey` to `newKey` (key rotation). Returns a new `v1` token under
 * `newKey`. Idempotent: if the token is already under `newKey` (and authenticates), it is returned
 * unchanged, so an interrupted rotation can simply be re-run. Throws `SecretDecryptError` as
 * `decryptSecret` does (e.g. 'wrong_key' when it is under neither key).
 */
export function reencryptSecret(token: string, oldKey: Buffer, newKey: Buffer): string {
  assertKey(oldKey, 'oldKey');
  assertKey(newKey, 'newKey');
  const env = parseToken(token);
  if (env.kid === keyFingerprint(newKey) && env.kid !== keyFingerprint(oldKey)) {
    decryptSecret(token, newKey); // authenticate before declaring it done
    return token;
  }
  return encryptSecret(decryptSecret(token, oldKey), newKey);
}

/**
 * Parses the key setting. Accepts 64 hex chars, or standard/URL-safe base64 (padding optional)
 * decoding to exactly 32 bytes; surrounding whitespace is ignored. Returns a 32-byte Buffer.
 * Throws Error naming TOKENPACE_SECRET_KEY (never echoing the value) otherwise. `name` overrides
 * the name used in messages (e.g. a key file path).
 */
export function parseEncryptionKey(value: string, name: string = ENV_NAME): Buffer {
  const v = typeof value === 'string' ? value.trim() : '';
  if (/^[0-9a-fA-F]{64}$/.test(v)) return Buffer.from(v, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(v)) {
    const norm = v.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
    const b = Buffer.from(norm, 'base64');
    // strict: re-encoding must give the same characters (rejects stray bits / garbage lengths)
    if (b.length === KEY_BYTES && b.toString('base64').replace(/=+$/, '') === norm) return b;
  }
  throw new Error(
    `${name} must be 64 hex characters or base64 of 32 bytes (got ${v.length} characters); ` +
      `generate one with: node -e "console.log(require('crypto').randomBytes(32).toString('hex'))"`,
  );
}

/** Generates a fresh random 32-byte key. */
export function generateEncryptionKey(): Buffer {
  return crypto.randomBytes(KEY_BYTES);
}

/**
 * Returns the 32-byte key stored at `filePath`, creating it on first run: a random key written as
 * 64 hex chars + newline, mode 0600, exclusive create (a concurrent creator's key wins and is read
 * back); the parent directory is created with mode 0700 if missing.
 * Throws Error if the file is not a regular file, is group/world accessible (mode & 0o077 ≠ 0 —
 * message names the path, the mode and `chmod 600`), is owned by another user (POSIX), or does
 * not contain a valid key.
 */
export function loadOrCreateKeyFile(filePath: string): Buffer {
  fs.mkdirSync(path.dirname(filePath), { recursive: true, mode: 0o700 });
  try {
    const fd = fs.openSync(filePath, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600);
    try {
      fs.fchmodSync(fd, 0o600); // independent of umask
      fs.writeSync(fd, `${generateEncryptionKey().toString('hex')}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const fd = fs.openSync(filePath, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new Error(`key file ${filePath} is not a regular file`);
    const mode = st.mode & 0o777;
    if ((mode & 0o077) !== 0) {
      throw new Error(`key file ${filePath} has permissions 0${mode.toString(8)}; expected 0600 (run: chmod 600 ${filePath})`);
    }
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) {
      throw new Error(`key file ${filePath} is owned by uid ${st.uid}, not the current user (uid ${process.getuid()})`);
    }
    return parseEncryptionKey(fs.readFileSync(fd, 'utf8'), `key file ${filePath}`);
  } finally {
    fs.closeSync(fd);
  }
}

/** Placeholder written by `redactSecrets`. */
export const REDACTED = '[REDACTED]';

/** Encoded spellings shorter than this are not searched (too likely to occur by chance). */
const MIN_ENCODED_LENGTH = 8;

/**
 * The base64 (or base64url) characters that encode `bytes` wherever they sit in a longer encoded
 * blob: for each of the 3 alignments, the characters of the 3-byte groups lying wholly inside the
 * secret (a key base64-encoded inside `Authorization: Bearer …` or a JSON document shows one of them).
 */
function base64Cores(bytes: Buffer, url: boolean): string[] {
  const out: string[] = [];
  for (let k = 0; k < 3; k++) {
    const enc = Buffer.concat([Buffer.alloc(k), bytes]).toString(url ? 'base64url' : 'base64');
    const from = 4 * Math.ceil(k / 3);
    const to = 4 * Math.floor((k + bytes.length) / 3);
    if (to - from >= MIN_ENCODED_LENGTH) out.push(enc.slice(from, to));
  }
  return out;
}

/**
 * Every spelling of `secret` searched by {@link redactSecrets}: as is, URL-encoded, JSON-escaped,
 * base64 and base64url (whole, and the aligned cores of a longer blob), hex (lower and upper case).
 */
export function secretSpellings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const hex = bytes.toString('hex');
  const encoded = [
    bytes.toString('base64'),
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('base64url'),
    ...base64Cores(bytes, false),
    ...base64Cores(bytes, true),
    hex,
    hex.toUpperCase(),
  ];
  return [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), ...encoded.filter((e) => e.length >= MIN_ENCODED_LENGTH)];
}

/** `\uXXXX` escapes of JSON text decoded (a secret spelled with escaped letters shows in the decoded text). */
function decodeJsonUnicodeEscapes(text: string): string {
  return text.replace(/\\u([0-9a-fA-F]{4})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/**
 * Replaces every occurrence of each secret in `text` with `[REDACTED]`, for logs, error messages and
 * every stored provider-controlled text. Catches the spellings of {@link secretSpellings} (raw,
 * URL-encoded, JSON-escaped, base64/base64url also inside a longer blob, hex) and a secret split
 * across JSON `\u` escapes (then the text is kept with those escapes decoded). Empty / non-string
 * entries are ignored; longer spellings are replaced first. Returns the new string.
 */
export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[]): string {
  return createSecretRedactor(secrets).redact(text);
}

/** {@link redactSecrets} with the spellings computed once, for many texts; `minLength` is the shortest spelling (0: none). */
export interface SecretRedactor {
  redact(text: string): string;
  readonly minLength: number;
}

/** Builds the redactor of {@link redactSecrets} for these secrets (spellings computed once). */
export function createSecretRedactor(secrets: readonly (string | null | undefined)[]): SecretRedactor {
  const needles = new Set<string>();
  for (const s of secrets) {
    if (typeof s !== 'string' || s.length === 0) continue;
    for (const n of secretSpellings(s)) if (n.length > 0) needles.add(n);
  }
  const sorted = [...needles].sort((a, b) => b.length - a.length);
  const minLength = sorted.length ? sorted[sorted.length - 1]!.length : 0;
  const replaceAll = (t: string) => {
    let out = t;
    for (const n of sorted) if (out.includes(n)) out = out.split(n).join(REDACTED);
    return out;
  };
  return {
    minLength,
    redact(text) {
      let out = String(text);
      if (sorted.length === 0 || out.length < minLength) return out;
      out = replaceAll(out);
      if (out.includes('\\u')) {
        const decoded = decodeJsonUnicodeEscapes(out);
        if (decoded !== out) {
          const again = replaceAll(decoded);
          if (again !== decoded) out = again;
        }
      }
      return out;
    },
  };
}
