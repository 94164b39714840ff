/**
 * Headers an operator adds to one endpoint's probes (`endpoints.probe_headers`, set through the
 * reviewed catalog; decision 174): none by default, so a probe sends only what an ordinary SDK
 * client sends (./client-headers.ts). Use: a provider whose terms ask benchmark traffic to say so
 * (`x-benchmark-client: tokenpace`), or `accept-encoding: identity` for a provider that compresses
 * its event stream (a compressed body's read stamps cannot be lined up with its bytes, so its
 * measurements are `timing_uncertain`, decision 180).
 *
 * Bounds: at most 4 headers; names are RFC 9110 tokens (lower-cased), values visible ASCII and
 * spaces, at most 200 characters. Names that would change the request's meaning, its framing or
 * its credentials are refused (the adapter owns those).
 */
import { z } from 'zod';

/** Header names an operator may not set: framing, routing, credentials, content type. */
export const RESERVED_PROBE_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
  'cookie',
  'content-type',
  'x-amz-date',
  'x-amz-security-token',
  'x-amz-content-sha256',
]);

/** Most headers per endpoint. */
export const MAX_PROBE_HEADERS = 4;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
const headerValue = z.string().regex(/^[\x20-\x7e]{0,200}$/, 'must be visible ASCII or spaces, at most 200 characters');

/** `{ name: value }`, at most {@link MAX_PROBE_HEADERS} entries; names come out lower-cased. */
export const probeHeadersSchema = z
  .record(z.string(), headerValue)
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > MAX_PROBE_HEADERS) ctx.addIssue({ code: 'custom', message: `at most ${MAX_PROBE_HEADERS} headers`, path: [] });
    for (const name of names) {
      if (!HEADER_NAME.test(name)) ctx.addIssue({ code: 'custom', message: 'must be an HTTP header name (RFC 9110 token, 1-64 characters)', path: [name] });
      else if (RESERVED_PROBE_HEADERS.has(name.toLowerCase())) ctx.addIssue({ code: 'custom', message: 'is reserved: the adapter sets it', path: [name] });
    }
  })
  .transform((headers) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])));

/** Operator headers of one endpoint, lower-case name → value. */
export type ProbeHeaders = z.infer<typeof probeHeadersSchema>;
