import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { decryptSecret } from './secrets';
import {
  embedSignature,
  extractEmbeddedSignature,
  formatSignatureHeader,
  generateSigningKeyPair,
  jwkOf,
  keyIdOf,
  newStoredSigningKey,
  parseSignatureHeader,
  signBytes,
  signerOf,
  verifyBytes,
} from './signatures';

const run = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokenpace-sig-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const pair = generateSigningKeyPair();
const signer = signerOf(keyIdOf(pair.publicKeyPem), pair.privateKeyPem);
const doc = JSON.stringify({ snapshotId: 'abc', entries: [{ rank: 1, name: 'x "y", z', signatureLike: ',"signature":' }] });

/** openssl's Ed25519 verification of `bytes` (a tool nobody here wrote): true when it prints "Signature Verified Successfully". */
async function opensslVerifies(bytes: Buffer | string, sigB64: string, pem = pair.publicKeyPem): Promise<boolean> {
  const id = randomBytes(6).toString('hex');
  const [k, f, s] = ['pem', 'bin', 'sig'].map((ext) => path.join(dir, `${id}.${ext}`)) as [string, string, string];
  fs.writeFileSync(k, pem);
  fs.writeFileSync(f, bytes);
  fs.writeFileSync(s, Buffer.from(sigB64, 'base64'));
  try {
    const { stdout } = await run('openssl', ['pkeyutl', '-verify', '-pubin', '-inkey', k, '-rawin', '-in', f, '-sigfile', s]);
    return stdout.includes('Signature Verified Successfully');
  } catch {
    return false;
  }
}

describe('Ed25519 signatures', () => {
  it('a signature verifies here and with openssl; one changed byte fails both', async () => {
    const sig = signBytes(signer, doc);
    expect(verifyBytes(pair.publicKeyPem, doc, sig)).toBe(true);
    expect(await opensslVerifies(doc, sig)).toBe(true);
    const changed = Buffer.from(doc);
    changed[10] = changed[10]! ^ 0x01;
    expect(verifyBytes(pair.publicKeyPem, changed, sig)).toBe(false);
    expect(await opensslVerifies(changed, sig)).toBe(false);
    // another key's public half does not verify it
    expect(verifyBytes(generateSigningKeyPair().publicKeyPem, doc, sig)).toBe(false);
  });

  it('is deterministic (the same bytes give the same signature, so identical answers stay identical)', () => {
    expect(signBytes(signer, doc)).toBe(signBytes(signer, doc));
  });

  it('a malformed signature is false, never a throw', () => {
    expect(verifyBytes(pair.publicKeyPem, doc, 'not base64!')).toBe(false);
    expect(verifyBytes(pair.publicKeyPem, doc, Buffer.alloc(63).toString('base64'))).toBe(false);
  });

  it('the embedded form: last member, signed bytes = the document without it, verifiable with Python cryptography', async () => {
    const signed = embedSignature(doc, signer);
    expect(JSON.parse(signed)).toMatchObject({ snapshotId: 'abc', signature: { keyId: signer.keyId, alg: 'Ed25519' } });
    const got = extractEmbeddedSignature(signed)!;
    expect(got.signedText).toBe(doc);
    expect(verifyBytes(pair.publicKeyPem, got.signedText, got.signature.sig)).toBe(true);
    // Python's cryptography package, following the rule as the README states it.
    const file = path.join(dir, 'signed.json');
    const keyFile = path.join(dir, 'key.pem');
    fs.writeFileSync(file, signed);
    fs.writeFileSync(keyFile, pair.publicKeyPem);
    const py = `import base64, json, sys
from cryptography.hazmat.primitives.serialization import load_pem_public_key
text = open(sys.argv[1], 'rb').read().decode('utf-8')
at = text.rindex(',"signature":{')
signed, member = text[:at] + '}', json.loads(text[at + 13:-1])
load_pem_public_key(open(sys.argv[2], 'rb').read()).verify(base64.b64decode(member['sig']), signed.encode('utf-8'))
print('verified', member['keyId'])`;
    const { stdout } = await run('python3', ['-c', py, file, keyFile]);
    expect(stdout.trim()).toBe(`verified ${signer.keyId}`);
    // One changed byte in the body: Python refuses.
    fs.writeFileSync(file, signed.replace('"rank":1', '"rank":2'));
    await expect(run('python3', ['-c', py, file, keyFile])).rejects.toThrow(/InvalidSignature/);
  });

  it('a changed body or a moved member no longer verifies', () => {
    const signed = embedSignature(doc, signer);
    const tampered = extractEmbeddedSignature(signed.replace('"abc"', '"abd"'))!;
    expect(verifyBytes(pair.publicKeyPem, tampered.signedText, tampered.signature.sig)).toBe(false);
    expect(extractEmbeddedSignature(doc)).toBeNull();
    expect(extractEmbeddedSignature(`${signed.slice(0, -1)} }`)).toBeNull();
    expect(() => embedSignature(signed, signer)).toThrow(/already signed/);
    expect(() => embedSignature('[1,2]', signer)).toThrow(/JSON object/);
  });

  it('header values round-trip; a digest signature covers the SHA-256 (openssl dgst + pkeyutl)', async () => {
    const file = randomBytes(100_000);
    const digest = createHash('sha256').update(file).digest();
    const header = formatSignatureHeader({ keyId: signer.keyId, sig: signBytes(signer, digest), covers: 'sha256' });
    const h = parseSignatureHeader(header)!;
    expect(h).toMatchObject({ keyId: signer.keyId, alg: 'ed25519', covers: 'sha256' });
    expect(await opensslVerifies(digest, h.sig)).toBe(true);
    expect(parseSignatureHeader(formatSignatureHeader({ keyId: 'k', sig: 's', covers: 'body' }))).toEqual({
      keyId: 'k',
      alg: 'ed25519',
      sig: 's',
      covers: 'body',
    });
    expect(parseSignatureHeader('keyid="k", alg="rsa", sig="s"')).toBeNull();
    expect(parseSignatureHeader(null)).toBeNull();
  });

  it('stored keys: id from the public key, private half encrypted; JWK matches the PEM', () => {
    const secret = randomBytes(32);
    const k = newStoredSigningKey(secret);
    expect(k.id).toBe(keyIdOf(k.publicKeyPem));
    expect(k.privateKeyEnc).not.toContain('PRIVATE KEY');
    const s = signerOf(k.id, decryptSecret(k.privateKeyEnc, secret));
    expect(verifyBytes(k.publicKeyPem, 'x', signBytes(s, 'x'))).toBe(true);
    const jwk = jwkOf(k.publicKeyPem);
    expect(jwk.kty).toBe('OKP');
    expect(Buffer.from(jwk.x, 'base64url')).toHaveLength(32);
  });
});
