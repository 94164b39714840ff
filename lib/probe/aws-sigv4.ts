/**
 * Minimal AWS Signature Version 4 signing (header form) for Bedrock requests, with node:crypto.
 * Follows the AWS SigV4 specification ("Create a signed AWS API request"): canonical request →
 * string to sign → HMAC-SHA256 chain kDate/kRegion/kService/kSigning. Non-S3 services sign the
 * path URI-encoded twice (so a Bedrock model id `...v1:0`, sent as `v1%3A0`, signs as `v1%253A0`),
 * exactly like the AWS SDK's signature-v4 package.
 */
import { createHash, createHmac } from 'node:crypto';

/** Input of {@link signAwsRequestV4}. */
export interface AwsSigningInput {
  method: string;
  url: string;
  /** Headers to send and sign (names any case). `host` and `x-amz-date` are added. */
  headers: Record<string, string>;
  body: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string | null;
  region: string;
  /** Signing name of the service: `bedrock` for bedrock-runtime. */
  service: string;
  /** Signing time (wall clock; AWS rejects skew over 5 minutes). */
  date: Date;
}

const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding as SigV4 wants it: everything but unreserved characters, '/' optional. */
function awsEscape(value: string, keepSlash: boolean): string {
  return Array.from(new TextEncoder().encode(value), (byte) => {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._~]/.test(c) || (keepSlash && c === '/')) return c;
    return '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }).join('');
}

/**
 * Returns the headers to send: the input headers (lower-cased) plus `host`, `x-amz-date`,
 * `x-amz-security-token` (with a session token) and `authorization`. Pure; throws only on a
 * malformed URL (TypeError).
 */
export function signAwsRequestV4(input: AwsSigningInput): Record<string, string> {
  const url = new URL(input.url);
  const amzDate = input.date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers)) headers[name.toLowerCase()] = value;
  headers.host = url.host;
  headers['x-amz-date'] = amzDate;
  if (input.sessionToken) headers['x-amz-security-token'] = input.sessionToken;

  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((n) => `${n}:${headers[n]!.trim().replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = names.join(';');
  const canonicalPath = awsEscape(url.pathname || '/', true);
  const query = [...url.searchParams.entries()]
    .map(([k, v]) => [awsEscape(k, false), awsEscape(v, false)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalRequest = [input.method.toUpperCase(), canonicalPath, query, canonicalHeaders, signedHeaders, sha256Hex(input.body)].join('\n');
  const scope = `${day}/${input.region}/${input.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const kDate = hmac('AWS4' + input.secretAccessKey, day);
  const kRegion = hmac(kDate, input.region);
  const kService = hmac(kRegion, input.service);
  const kSigning = hmac(kService, 'aws4_request');
  const signature = createHmac('sha256', kSigning).update(stringToSign, 'utf8').digest('hex');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
}
