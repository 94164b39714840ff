/**
 * Ed25519 signatures of what Tokenpace publishes (snapshots, dumps, manifests), decision 230.
 *
 * Two forms, both over exact bytes so that a tool nobody here wrote can check them
 * (`openssl pkeyutl -verify -pubin -inkey key.pem -rawin -in file -sigfile sig`, Python's
 * `cryptography`):
 * - **header**: `Tokenpace-Signature: keyid="<id>", alg="ed25519", sig="<base64>"` signs the
 *   response body exactly as sent (for a dump file: its raw 32-byte SHA-256 digest, `covers="sha256"`,
 *   so a file of gigabytes is never held in memory to be signed);
 * - **embedded**: a JSON document ends with `,"signature":{"keyId":…,"alg":"Ed25519","sig":…}}`;
 *   the signed bytes are the document with that last member removed (the text before
 *   `,"signature":{` followed by `}`), so a reader who kept only the body can still verify it.
 *
 * Ed25519 (RFC 8032) is deterministic: the same bytes under the same key always give the same
 * signature, so signing at serve time keeps byte-identical answers byte-identical.
 * Keys are node:crypto KeyObjects exported as PEM (SPKI public, PKCS#8 private).
 */
import { encryptSecret } from './secrets';
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';

/** Header that carries a response's signature. */
export const SIGNATURE_HEADER = 'tokenpace-signature';

/** A signing key pair as stored (PEM text). */
export interface SigningKeyPem {
  publicKeyPem: string;
  privateKeyPem: string;
}

/** What signs: the key id published in /.well-known/tokenpace-keys.json and the private key. */
export interface Signer {
  keyId: string;
  privateKey: KeyObject;
}

/** The parsed `Tokenpace-Signature` header. */
export interface SignatureHeader {
  keyId: string;
  alg: 'ed25519';
  /** base64 signature (64 bytes) */
  sig: string;
  /** `body` (default): the exact body bytes; `sha256`: the body's raw SHA-256 digest */
  covers: 'body' | 'sha256';
}

/** Creates a fresh Ed25519 key pair (PEM: SPKI public, PKCS#8 private). */
export function generateSigningKeyPair(): SigningKeyPem {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** Key id of a public key: the first 16 base64url characters of SHA-256 over its SPKI DER (stable, no secret). */
export function keyIdOf(publicKeyPem: string): string {
  const der = createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64url').slice(0, 16);
}

/** A Signer from stored PEM text. Throws when the PEM is not an Ed25519 private key. */
export function signerOf(keyId: string, privateKeyPem: string): Signer {
  const privateKey = createPrivateKey(privateKeyPem);
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`signing key ${keyId} is ${privateKey.asymmetricKeyType}, not ed25519`);
  return { keyId, privateKey };
}

/** Base64 Ed25519 signature of `bytes`. */
export function signBytes(signer: Signer, bytes: string | Uint8Array): string {
  return sign(null, typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes, signer.privateKey).toString('base64');
}

/** True when `sigB64` is a valid Ed25519 signature of `bytes` under `publicKeyPem`; false for a malformed signature. */
export function verifyBytes(publicKeyPem: string, bytes: string | Uint8Array, sigB64: string): boolean {
  const sig = Buffer.from(sigB64, 'base64');
  if (sig.length !== 64) return false;
  try {
    return verify(null, typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes, createPublicKey(publicKeyPem), sig);
  } catch {
    return false;
  }
}

/** The header value for a signature. */
export function formatSignatureHeader(h: Omit<SignatureHeader, 'alg'>): string {
  return `keyid="${h.keyId}", alg="ed25519", sig="${h.sig}"${h.covers === 'sha256' ? ', covers="sha256"' : ''}`;
}

/** Parses a `Tokenpace-Signature` value; null when it is not one. */
export function parseSignatureHeader(value: string | null): SignatureHeader | null {
  if (!value) return null;
  const fields = new Map<string, string>();
  for (const m of value.matchAll(/([a-z]+)="([^"]*)"/g)) fields.set(m[1]!, m[2]!);
  const keyId = fields.get('keyid');
  const sig = fields.get('sig');
  const covers = fields.get('covers') ?? 'body';
  if (!keyId || !sig || fields.get('alg') !== 'ed25519' || (covers !== 'body' && covers !== 'sha256')) return null;
  return { keyId, alg: 'ed25519', sig, covers };
}

const EMBED_MARK = ',"signature":{';

/** The embedded signature member of a signed JSON document. */
export interface EmbeddedSignature {
  keyId: string;
  alg: 'Ed25519';
  sig: string;
}

/**
 * Appends the embedded signature to a JSON object text: `{…}` → `{…,"signature":{…}}`, signing the
 * text as given. Throws when `json` is not an object text or already holds a signature member.
 */
export function embedSignature(json: string, signer: Signer): string {
  if (!json.startsWith('{') || !json.endsWith('}') || json === '{}') throw new Error('embedSignature: not a non-empty JSON object text');
  if (json.includes(EMBED_MARK)) throw new Error('embedSignature: the document is already signed');
  const member: EmbeddedSignature = { keyId: signer.keyId, alg: 'Ed25519', sig: signBytes(signer, json) };
  return `${json.slice(0, -1)}${EMBED_MARK}${JSON.stringify(member).slice(1)}}`;
}

/**
 * Splits a signed JSON document into the bytes that were signed and its signature member; null
 * when the text carries none. The member is the last one, so the last `,"signature":{` marks it.
 */
export function extractEmbeddedSignature(text: string): { signedText: string; signature: EmbeddedSignature } | null {
  const at = text.lastIndexOf(EMBED_MARK);
  if (at < 0 || !text.endsWith('}}')) return null;
  let member: unknown;
  try {
    member = JSON.parse(text.slice(at + EMBED_MARK.length - 1, -1));
  } catch {
    return null;
  }
  const m = member as Partial<EmbeddedSignature>;
  if (typeof m !== 'object' || m === null || typeof m.keyId !== 'string' || typeof m.sig !== 'string' || m.alg !== 'Ed25519') return null;
  return { signedText: `${text.slice(0, at)}}`, signature: { keyId: m.keyId, alg: 'Ed25519', sig: m.sig } };
}

/** The public key as a JWK (RFC 8037 OKP, crv Ed25519). */
export function jwkOf(publicKeyPem: string): { kty: 'OKP'; crv: 'Ed25519'; x: string } {
  const jwk = createPublicKey(publicKeyPem).export({ format: 'jwk' });
  return { kty: 'OKP', crv: 'Ed25519', x: String(jwk.x) };
}

/** A new key as stored: id, public PEM, and the private PEM encrypted under `secretKey` (AES-256-GCM). */
export function newStoredSigningKey(secretKey: Buffer): { id: string; publicKeyPem: string; privateKeyEnc: string } {
  const pair = generateSigningKeyPair();
  return { id: keyIdOf(pair.publicKeyPem), publicKeyPem: pair.publicKeyPem, privateKeyEnc: encryptSecret(pair.privateKeyPem, secretKey) };
}
