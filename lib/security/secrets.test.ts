import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  REDACTED,
  SecretDecryptError,
  decryptSecret,
  encryptSecret,
  keyFingerprint,
  loadOrCreateKeyFile,
  parseEncryptionKey,
  redactSecrets,
  reencryptSecret,
} from './secrets';

const keyA = Buffer.alloc(32, 0xa1);
const keyB = Buffer.alloc(32, 0xb2);

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a throw');
}

describe('encrypt/decrypt', () => {
  it('round trips, including empty, unicode and long values', () => {
    for (const plain of ['sk-proj-abc123', '', 'ключ 🔑 鍵', 'x'.repeat(10_000)]) {
      const token = encryptSecret(plain, keyA);
      expect(decryptSecret(token, keyA)).toBe(plain);
    }
  });

  it('property: round trip for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(decryptSecret(encryptSecret(s, keyA), keyA)).toBe(s);
      }),
      { numRuns: 200 },
    );
  });

  it('token format v1:<kid>:<iv 12B>:<tag 16B>:<ct>, fresh IV each time, no plaintext inside', () => {
    const t1 = encryptSecret('sk-secret-value', keyA);
    const t2 = encryptSecret('sk-secret-value', keyA);
    expect(t1).not.toBe(t2);
    const [v, kid, iv = '', tag = '', ct = ''] = t1.split(':');
    expect(v).toBe('v1');
    expect(kid).toBe(keyFingerprint(keyA));
    expect(kid).toBe(crypto.createHash('sha256').update(keyA).digest('hex').slice(0, 8));
    expect(Buffer.from(iv, 'base64')).toHaveLength(12);
    expect(Buffer.from(tag, 'base64')).toHaveLength(16);
    expect(Buffer.from(ct, 'base64')).toHaveLength('sk-secret-value'.length);
    expect(t1).not.toContain('sk-secret');
    expect(t1.split(':')[2]).not.toBe(t2.split(':')[2]);
  });

  it('detects tampering in every field', () => {
    const token = encryptSecret('sk-live-123456', keyA);
    const parts = token.split(':');
    const flip = (b64: string) => {
      const b = Buffer.from(b64, 'base64');
      b[0]! ^= 1;
      return b.toString('base64');
    };
    for (const i of [2, 3, 4]) {
      const p = [...parts];
      p[i] = flip(p[i]!);
      const err = thrown(() => decryptSecret(p.join(':'), keyA));
      expect(err).toBeInstanceOf(SecretDecryptError);
      expect((err as SecretDecryptError).kind).toBe('tampered');
      expect(err.message).toBe(`secret token failed authentication (modified or corrupted; key ${parts[1]})`);
    }
    // appended ciphertext byte
    const longer = [...parts];
    longer[4] = Buffer.concat([Buffer.from(parts[4]!, 'base64'), Buffer.from([0])]).toString('base64');
    expect((thrown(() => decryptSecret(longer.join(':'), keyA)) as SecretDecryptError).kind).toBe('tampered');
  });

  it('wrong key is reported as wrong_key, naming both key ids', () => {
    const token = encryptSecret('sk-live-123456', keyA);
    const err = thrown(() => decryptSecret(token, keyB));
    expect(err).toBeInstanceOf(SecretDecryptError);
    expect((err as SecretDecryptError).kind).toBe('wrong_key');
    expect(err.message).toBe(`secret was encrypted with key ${keyFingerprint(keyA)}, but the configured TOKENPACE_SECRET_KEY is key ${keyFingerprint(keyB)}`);
    expect(err.message).not.toContain('sk-live');
  });

  it('a forged key id with the wrong key still fails authentication', () => {
    const parts = encryptSecret('sk-live-123456', keyA).split(':');
    parts[1] = keyFingerprint(keyB);
    expect((thrown(() => decryptSecret(parts.join(':'), keyB)) as SecretDecryptError).kind).toBe('tampered');
    expect((thrown(() => decryptSecret(parts.join(':'), keyA)) as SecretDecryptError).kind).toBe('wrong_key');
  });

  it.each([
    ['', 'malformed secret token: unsupported version "" (expected v1)'],
    ['sk-plaintext-key', 'malformed secret token: unsupported version "sk-plain" (expected v1)'],
    ['v2:00000000:a:b:c', 'malformed secret token: unsupported version "v2" (expected v1)'],
    ['v1:abc', 'malformed secret token: expected 5 fields, got 2'],
    ['v1:ZZZZZZZZ:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA==:AA==', 'malformed secret token: key id must be 8 hex chars'],
    ['v1:00000000:AAAA:AAAAAAAAAAAAAAAAAAAAAA==:AA==', 'malformed secret token: iv must be 12 bytes (got 3)'],
    ['v1:00000000:AAAAAAAAAAAAAAAA:AAAA:AA==', 'malformed secret token: tag must be 16 bytes (got 3)'],
    ['v1:00000000:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA==:*!', 'malformed secret token: ciphertext is not base64'],
  ])('malformed token %j', (token, message) => {
    const err = thrown(() => decryptSecret(token, keyA));
    expect(err).toBeInstanceOf(SecretDecryptError);
    expect((err as SecretDecryptError).kind).toBe('malformed');
    expect(err.message).toBe(message);
  });

  it('rejects keys that are not 32 bytes', () => {
    expect(() => encryptSecret('x', Buffer.alloc(16))).toThrow('key must be a 32-byte Buffer (got 16 bytes)');
    expect(() => decryptSecret('v1:x', Buffer.alloc(31))).toThrow(TypeError);
  });
});

describe('rotation', () => {
  it('reencryptSecret moves a token from the old key to the new key', () => {
    const old = encryptSecret('sk-rotate-me', keyA);
    const fresh = reencryptSecret(old, keyA, keyB);
    expect(fresh.split(':')[1]).toBe(keyFingerprint(keyB));
    expect(decryptSecret(fresh, keyB)).toBe('sk-rotate-me');
    expect((thrown(() => decryptSecret(fresh, keyA)) as SecretDecryptError).kind).toBe('wrong_key');
  });

  it('is idempotent: a token already under the new key is returned unchanged', () => {
    const fresh = reencryptSecret(encryptSecret('sk-rotate-me', keyA), keyA, keyB);
    expect(reencryptSecret(fresh, keyA, keyB)).toBe(fresh);
  });

  it('a token under neither key fails with wrong_key', () => {
    const keyC = Buffer.alloc(32, 0xc3);
    const t = encryptSecret('sk', keyC);
    expect((thrown(() => reencryptSecret(t, keyA, keyB)) as SecretDecryptError).kind).toBe('wrong_key');
  });

  it('a tampered token is not laundered into a valid one', () => {
    const parts = encryptSecret('sk', keyA).split(':');
    parts[4] = Buffer.from('zz').toString('base64');
    expect((thrown(() => reencryptSecret(parts.join(':'), keyA, keyB)) as SecretDecryptError).kind).toBe('tampered');
  });
});

describe('parseEncryptionKey', () => {
  const raw = crypto.randomBytes(32);
  it.each([
    ['hex lower', raw.toString('hex')],
    ['hex upper', raw.toString('hex').toUpperCase()],
    ['base64', raw.toString('base64')],
    ['base64 unpadded', raw.toString('base64').replace(/=+$/, '')],
    ['base64url', raw.toString('base64url')],
    ['with whitespace', `  ${raw.toString('hex')}\n`],
  ])('accepts %s', (_name, value) => {
    expect(parseEncryptionKey(value).equals(raw)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['63 hex', raw.toString('hex').slice(0, 63)],
    ['65 hex', `${raw.toString('hex')}0`],
    ['16-byte base64', crypto.randomBytes(16).toString('base64')],
    ['33-byte base64', crypto.randomBytes(33).toString('base64')],
    ['passphrase', 'correct horse battery staple'],
  ])('rejects %s, naming TOKENPACE_SECRET_KEY without echoing the value', (_name, value) => {
    const err = thrown(() => parseEncryptionKey(value));
    expect(err.message).toMatch(/^TOKENPACE_SECRET_KEY must be 64 hex characters or base64 of 32 bytes \(got \d+ characters\)/);
    if (value.length > 3) expect(err.message).not.toContain(value);
  });
});

describe('loadOrCreateKeyFile', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokenpace-secrets-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates a 0600 key file (and 0700 parent) on first run, reads the same key later', () => {
    const file = path.join(dir, 'nested', 'secret.key');
    const prevUmask = process.umask(0o000); // even with a permissive umask
    let k1: Buffer;
    try {
      k1 = loadOrCreateKeyFile(file);
    } finally {
      process.umask(prevUmask);
    }
    expect(k1).toHaveLength(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${k1.toString('hex')}\n`);
    const k2 = loadOrCreateKeyFile(file);
    expect(k2.equals(k1)).toBe(true);
    expect(decryptSecret(encryptSecret('sk', k1), k2)).toBe('sk');
  });

  it('two different files give different keys', () => {
    const a = loadOrCreateKeyFile(path.join(dir, 'a.key'));
    const b = loadOrCreateKeyFile(path.join(dir, 'b.key'));
    expect(a.equals(b)).toBe(false);
  });

  it.each([0o644, 0o640, 0o604, 0o660])('refuses a key file with mode 0%s', (mode) => {
    const file = path.join(dir, `loose-${mode.toString(8)}.key`);
    loadOrCreateKeyFile(file);
    fs.chmodSync(file, mode);
    expect(() => loadOrCreateKeyFile(file)).toThrow(`key file ${file} has permissions 0${mode.toString(8)}; expected 0600 (run: chmod 600 ${file})`);
  });

  it('accepts 0400 (read-only for owner)', () => {
    const file = path.join(dir, 'ro.key');
    const k = loadOrCreateKeyFile(file);
    fs.chmodSync(file, 0o400);
    expect(loadOrCreateKeyFile(file).equals(k)).toBe(true);
  });

  it('refuses a file with invalid content, naming the file', () => {
    const file = path.join(dir, 'bad.key');
    fs.writeFileSync(file, 'not a key\n', { mode: 0o600 });
    expect(() => loadOrCreateKeyFile(file)).toThrow(`key file ${file} must be 64 hex characters or base64 of 32 bytes`);
  });

  it('refuses a directory and a symlink', () => {
    const sub = path.join(dir, 'adir');
    fs.mkdirSync(sub, { mode: 0o700 });
    expect(() => loadOrCreateKeyFile(sub)).toThrow();
    const target = path.join(dir, 'target.key');
    loadOrCreateKeyFile(target);
    const link = path.join(dir, 'link.key');
    fs.symlinkSync(target, link);
    expect(() => loadOrCreateKeyFile(link)).toThrow(/ELOOP/);
  });
});

describe('redactSecrets', () => {
  it('replaces raw, URL-encoded and JSON-escaped occurrences', () => {
    const secret = 'sk-ab/c+d"e';
    const text = [`Authorization: Bearer ${secret}`, `GET /v1?key=${encodeURIComponent(secret)}`, `body ${JSON.stringify({ key: secret })}`].join('\n');
    const out = redactSecrets(text, [secret]);
    expect(out).toBe([`Authorization: Bearer ${REDACTED}`, `GET /v1?key=${REDACTED}`, `body {"key":"${REDACTED}"}`].join('\n'));
  });

  it('handles several secrets, overlapping ones longest first, and ignores empty/null', () => {
    expect(redactSecrets('a sk-1234 b sk-12345678 c', ['sk-1234', 'sk-12345678', '', null, undefined])).toBe(`a ${REDACTED} b ${REDACTED} c`);
    expect(redactSecrets('nothing here', [])).toBe('nothing here');
    expect(redactSecrets('x.y*z x.y*z', ['x.y*z'])).toBe(`${REDACTED} ${REDACTED}`); // no regex semantics
  });

  it('replaces base64, base64url and hex spellings, also a key base64-encoded inside a longer blob at any alignment (issue 19 #12)', () => {
    const secret = 'key-0123456789abcdef?>';
    const b = Buffer.from(secret);
    for (const enc of [b.toString('base64'), b.toString('base64url'), b.toString('hex'), b.toString('hex').toUpperCase()])
      expect(redactSecrets(`x ${enc} y`, [secret])).toBe(`x ${REDACTED} y`);
    for (const prefix of ['', 'a', 'ab', 'Bearer ']) {
      const blob = Buffer.from(`${prefix}${secret}"}`).toString('base64');
      const out = redactSecrets(blob, [secret]);
      expect(out).toContain(REDACTED);
      // what is left of the blob decodes to at most a few bytes of the key at either end
      expect(out.replace(REDACTED, '').length).toBeLessThan(Math.ceil((prefix.length + 2) / 3) * 4 + 12);
    }
  });

  it('catches a key split by JSON \\u escapes (the text is kept decoded)', () => {
    const secret = 'sk-live-abcdef123456';
    const escaped = secret.replace(/[a-f]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
    expect(redactSecrets(`{"echo":"${escaped}"}`, [secret])).toBe(`{"echo":"${REDACTED}"}`);
  });
});
