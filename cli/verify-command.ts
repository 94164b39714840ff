/**
 * `tokenpace verify <url | file> [--keys <url | file>] [--signature <header value>]` (decision 230):
 * checks what Tokenpace published, offline once the keys are at hand.
 * - A URL is downloaded; its Tokenpace-Signature header is checked over the exact bytes received
 *   (a dump file: over their SHA-256, `covers="sha256"`), and an embedded signature, if the body is
 *   a signed JSON document. Keys default to `<origin>/.well-known/tokenpace-keys.json`.
 * - A file is checked by its embedded signature (a kept snapshot or manifest), and by
 *   `--signature` (a saved header value) when given; `--keys` is then required.
 * Prints one line per signature; exit 0 when every signature found is valid and there is at least
 * one, 1 when one fails or none is found, 2 on bad usage.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { extractEmbeddedSignature, parseSignatureHeader, SIGNATURE_HEADER, verifyBytes } from '@/lib/security/signatures';
import { UsageError } from './usage-error';

interface PublishedKey {
  id: string;
  publicKeyPem: string;
  validFrom: string;
  validUntil: string | null;
}

const isUrl = (s: string) => /^https?:\/\//i.test(s);

async function readSource(src: string): Promise<{ bytes: Buffer; header: string | null }> {
  if (isUrl(src)) {
    const res = await fetch(src, { headers: { accept: 'application/json, */*' } });
    if (!res.ok) throw new Error(`GET ${src}: HTTP ${res.status}`);
    return { bytes: Buffer.from(await res.arrayBuffer()), header: res.headers.get(SIGNATURE_HEADER) };
  }
  if (!fs.existsSync(src)) throw new UsageError(`verify: no such file or URL "${src}"`);
  return { bytes: fs.readFileSync(src), header: null };
}

async function loadKeys(src: string): Promise<PublishedKey[]> {
  const { bytes } = await readSource(src);
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new Error(`keys ${src}: not JSON`);
  }
  const keys = (parsed as { keys?: unknown }).keys;
  if (!Array.isArray(keys)) throw new Error(`keys ${src}: no "keys" list`);
  return keys.filter(
    (k): k is PublishedKey =>
      typeof k === 'object' && k !== null && typeof (k as PublishedKey).id === 'string' && typeof (k as PublishedKey).publicKeyPem === 'string',
  );
}

/** Runs the command; returns the exit code. */
export async function runVerifyCommand(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  let target: string | null = null;
  let keysSrc: string | null = null;
  let headerArg: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--keys' && argv[i + 1]) keysSrc = argv[++i]!;
    else if (a === '--signature' && argv[i + 1]) headerArg = argv[++i]!;
    else if (!a.startsWith('--') && target === null) target = a;
    else throw new UsageError(`verify: unknown or incomplete option "${a}"`);
  }
  if (!target) throw new UsageError('verify: give a snapshot/dump URL or a file');
  if (!keysSrc) {
    if (!isUrl(target)) throw new UsageError('verify: a file needs --keys <url|file> (the site’s /.well-known/tokenpace-keys.json)');
    keysSrc = new URL('/.well-known/tokenpace-keys.json', target).toString();
  }
  const { bytes, header } = await readSource(target);
  const keys = await loadKeys(keysSrc);
  const keyOf = (id: string) => keys.find((k) => k.id === id);
  let checked = 0;
  let failed = 0;
  const report = (what: string, keyId: string, ok: boolean | null) => {
    checked++;
    const key = keyOf(keyId);
    if (ok === null) {
      failed++;
      out(`FAILED  ${what}: key ${keyId} is not in ${keysSrc}`);
    } else if (!ok) {
      failed++;
      out(`FAILED  ${what}: signature by key ${keyId} does not match these bytes`);
    } else out(`ok      ${what}: signed by key ${keyId} (valid ${key!.validFrom} – ${key!.validUntil ?? 'now'})`);
  };

  const headerValue = headerArg ?? header;
  if (headerValue) {
    const h = parseSignatureHeader(headerValue);
    if (!h) {
      checked++;
      failed++;
      out(`FAILED  header signature: not a Tokenpace-Signature value`);
    } else {
      const key = keyOf(h.keyId);
      const signed = h.covers === 'sha256' ? createHash('sha256').update(bytes).digest() : bytes;
      report(
        h.covers === 'sha256' ? 'header signature (over the SHA-256 of the file)' : 'header signature (over the exact bytes)',
        h.keyId,
        key ? verifyBytes(key.publicKeyPem, signed, h.sig) : null,
      );
    }
  }
  const embedded = bytes[0] === 0x7b ? extractEmbeddedSignature(bytes.toString('utf8')) : null;
  if (embedded) {
    const key = keyOf(embedded.signature.keyId);
    report('embedded signature', embedded.signature.keyId, key ? verifyBytes(key.publicKeyPem, embedded.signedText, embedded.signature.sig) : null);
  }
  if (checked === 0) {
    out(`FAILED  no signature found (neither a ${SIGNATURE_HEADER} header nor an embedded "signature" member)`);
    return 1;
  }
  return failed === 0 ? 0 : 1;
}
