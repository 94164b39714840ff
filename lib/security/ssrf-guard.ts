/**
 * SSRF guard for every outbound probe connection (DESIGN §5, decision record 010).
 *
 * Three layers:
 *  1. `checkUrl` — parse with WHATWG `new URL()` (which canonicalises decimal/octal/hex/short IPv4
 *     forms), http(s) only, optional port allow-list, IP-literal hosts checked directly.
 *  2. The connector of the undici `Agent` used by `createGuardedFetch` — resolves the hostname once
 *     with `all: true`, rejects the connection if ANY resolved address is non-public, and hands the
 *     checked addresses to `net.connect`/`tls.connect` through its `lookup` hook, so the address
 *     connected to is the address checked (no second DNS lookup, no rebinding window).
 *  3. Redirects are followed manually (`redirect: 'manual'`), each `Location` re-checked by
 *     `checkUrl` and again by the connector, at most `maxRedirects` hops.
 */
import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import type { RequestInit as UndiciRequestInit } from 'undici';

export type { LookupFunction } from 'node:net';

/**
 * Why an address or request was refused. Address categories follow ipaddr.js range names where
 * they exist ('loopback', 'private', 'linkLocal', 'carrierGradeNat', 'uniqueLocal', 'multicast',
 * 'unspecified', 'broadcast', 'reserved', 'benchmarking', ...) plus guard-specific ones.
 */
export type SsrfBlockReason = string;

/**
 * Thrown when the guard refuses a destination. `kind` is always `'blocked'`.
 * `reason` is the category (e.g. `'private'`, `'loopback'`, `'linkLocal'`, `'port'`,
 * `'too_many_redirects'`, `'reservedName'`); `address` is what the caller asked for: the IP literal,
 * the host NAME when a name was refused (never the addresses it resolved to), or `host:port`/URL for
 * non-address reasons. Message format: `blocked: <address> is <reason>[ (<detail>)]`, or for a name
 * `blocked: <name> resolves to a <reason> address`. The resolved addresses of a refused name are
 * kept in `resolvedAddresses` for the operator's logs only: messages shown to users never carry
 * them, so the guard cannot be used to map internal DNS (decision record 082).
 */
export class SsrfBlockedError extends Error {
  readonly kind = 'blocked' as const;
  /** For a refused host name: the addresses it resolved to (operator logs only; never shown). */
  readonly resolvedAddresses: string[];
  constructor(
    readonly reason: SsrfBlockReason,
    readonly address: string,
    detail?: string,
    resolved?: { hostname: string; addresses: string[] },
  ) {
    super(resolved ? `blocked: ${resolved.hostname} resolves to a ${reason} address` : `blocked: ${address} is ${reason}${detail ? ` (${detail})` : ''}`);
    this.name = 'SsrfBlockedError';
    this.resolvedAddresses = resolved?.addresses ?? [];
  }
}

/**
 * Thrown when a URL cannot be parsed or uses a scheme other than http/https. `kind` is always
 * `'invalid_url'`. Message format: `invalid_url: <reason>: <input>` (input truncated to 200 chars).
 */
export class InvalidUrlError extends Error {
  readonly kind = 'invalid_url' as const;
  constructor(
    readonly reason: string,
    readonly input: string,
  ) {
    super(`invalid_url: ${reason}: ${input.length > 200 ? `${input.slice(0, 200)}…` : input}`);
    this.name = 'InvalidUrlError';
  }
}

/** Options shared by `checkAddress`, `checkUrl` and `createGuardedFetch`. All fields optional. */
export interface SsrfGuardOptions {
  /**
   * Allow loopback (127/8, ::1) and private (10/8, 172.16/12, 192.168/16, fc00::/7) addresses, for
   * tests and the local calibration endpoint. Link-local (incl. 169.254.169.254 metadata), CGNAT,
   * multicast, unspecified, reserved etc. stay blocked. Schemes stay http(s)-only. Default false.
   */
  allowPrivate?: boolean;
  /** Optional destination port allow-list (TCP ports, 1–65535). Absent/empty = any port. */
  allowedPorts?: number[];
  /**
   * Injectable DNS resolver (tests), node:dns-compatible callback signature; it is always called
   * as `(hostname, { all: true, family: 0 }, cb)` and must answer with `LookupAddress[]`
   * (a single `(address, family)` answer is accepted too). Default `dns.lookup`.
   */
  lookup?: LookupFunction;
  /** Maximum redirects followed by the guarded fetch (default 3). One more → SsrfBlockedError('too_many_redirects'). */
  maxRedirects?: number;
  /**
   * Exact `address:port` endpoints exempt from the address check even when non-public, e.g.
   * `['127.0.0.1:3999']` for the local calibration server, or `['[::1]:8080']`. Matches the
   * resolved/literal IP (canonical form) and the destination port, nothing broader. Default none.
   */
  allowEndpoints?: string[];
  /**
   * PEM CA certificate(s) to trust for https (e.g. a private calibration endpoint or tests). When
   * set, they REPLACE Node's default root store for this guard (node:tls `ca` semantics). Default unset.
   */
  ca?: string | Buffer | Array<string | Buffer>;
}

/** Categories allowed by `allowPrivate: true`. */
const PRIVATE_OK = new Set(['loopback', 'private', 'uniqueLocal']);
/** 2000::/3 — all of IANA's global unicast IPv6 space. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

function bare(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * Classifies an IP address. Returns null when it is public unicast, else a reason string.
 * Embedded-IPv4 IPv6 forms are unwrapped and judged by their IPv4 address (reason prefixed).
 */
function classify(ip: string): string | null {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(bare(ip));
  } catch {
    return 'unparseable';
  }
  if (addr.kind() === 'ipv4') {
    const range = addr.range();
    // 198.18/15 sits in ipaddr.js' 'reserved' list; name it for clearer messages.
    if (range === 'reserved' && addr.match(ipaddr.parseCIDR('198.18.0.0/15'))) return 'benchmarking';
    if (range === 'reserved' && isDocumentationV4(addr as ipaddr.IPv4)) return 'documentation';
    return range === 'unicast' ? null : range;
  }
  const v6 = addr as ipaddr.IPv6;
  const range = v6.range();
  const p = v6.parts;
  // ::ffff:a.b.c.d (IPv4-mapped): judged by the IPv4 address.
  if (range === 'ipv4Mapped') return sub('ipv4Mapped', v6.toIPv4Address().toString());
  // ::a.b.c.d (IPv4-compatible, deprecated RFC 4291 §2.5.5.1): ipaddr.js calls it 'unicast'; block.
  if (range !== 'unspecified' && range !== 'loopback' && p.slice(0, 6).every((x) => x === 0)) {
    return `ipv4Compatible(${v4From(p[6]!, p[7]!)})`;
  }
  // 64:ff9b::/96 (NAT64 well-known prefix): judged by the embedded IPv4, so DNS64 hosts still work.
  if (p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((x) => x === 0)) {
    return sub('nat64', v4From(p[6]!, p[7]!));
  }
  // 2002:AABB:CCDD::/48 (6to4): judged by the embedded IPv4 (the relay delivers to it).
  if (range === '6to4') return sub('6to4', v4From(p[1]!, p[2]!));
  if (range !== 'unicast') return range; // loopback, linkLocal, uniqueLocal, multicast, teredo, rfc6052 /48, ...
  if (!v6.match(GLOBAL_UNICAST_V6)) return 'reservedV6'; // outside 2000::/3: unallocated
  return null;
}

function isDocumentationV4(a: ipaddr.IPv4): boolean {
  return ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24'].some((c) => a.match(ipaddr.parseCIDR(c)));
}

function v4From(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

/** Embedded IPv4 verdict: null if public, else `<wrapper>:<inner reason>`. */
function sub(wrapper: string, v4: string): string | null {
  const inner = classify(v4);
  return inner === null ? null : `${wrapper}:${inner}`;
}

/** The category that `allowPrivate` tests against (inner category for wrapped forms). */
function baseCategory(reason: string): string {
  const i = reason.lastIndexOf(':');
  return i >= 0 ? reason.slice(i + 1) : reason;
}

function canonicalIp(ip: string): string {
  const a = ipaddr.parse(bare(ip));
  return a.kind() === 'ipv6' ? (a as ipaddr.IPv6).toNormalizedString() : a.toString();
}

function endpointExempt(ip: string, port: number | undefined, opts: SsrfGuardOptions): boolean {
  if (!opts.allowEndpoints?.length || port === undefined) return false;
  let canon: string;
  try {
    canon = canonicalIp(ip);
  } catch {
    return false;
  }
  return opts.allowEndpoints.some((ep) => {
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(ep.trim());
    if (!m || Number(m[2]) !== port) return false;
    try {
      return canonicalIp(m[1]!) === canon;
    } catch {
      return false;
    }
  });
}

/**
 * Throws `SsrfBlockedError` unless `ip` (IPv4 dotted quad or IPv6, brackets allowed) is an
 * acceptable destination: public unicast, or loopback/private with `opts.allowPrivate`, or an exact
 * `opts.allowEndpoints` match for `port`. IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d),
 * NAT64 (64:ff9b::/96) and 6to4 (2002::/16) forms are judged by the embedded IPv4; IPv4-compatible
 * is always blocked. Non-IP strings throw `SsrfBlockedError('unparseable')`. Returns void.
 */
export function checkAddress(ip: string, opts: SsrfGuardOptions = {}, port?: number): void {
  const reason = classify(ip);
  if (reason === null) return;
  if (endpointExempt(ip, port, opts)) return;
  if (opts.allowPrivate && PRIVATE_OK.has(baseCategory(reason)) && !reason.startsWith('ipv4Compatible')) return;
  throw new SsrfBlockedError(reason, bare(ip));
}

function defaultPort(u: URL): number {
  return u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
}

function checkPort(port: number, host: string, opts: SsrfGuardOptions): void {
  if (opts.allowedPorts?.length && !opts.allowedPorts.includes(port)) {
    throw new SsrfBlockedError('port', `${host}:${port}`, `allowed: ${opts.allowedPorts.join(',')}`);
  }
}

/**
 * Special-use and private-use names that only ever mean this machine or a private network
 * (RFC 6761 `localhost`/`invalid`, RFC 6762 `local`, RFC 8375 `home.arpa`, ICANN's `internal`,
 * the common `localdomain`), compared after lower-casing and dropping trailing dots, so
 * `localhost.`, `LOCALHOST` and `api.localhost` are all caught. Refused by name before any DNS
 * lookup unless private destinations are allowed (a resolver may answer anything for them).
 */
const RESERVED_NAME_SUFFIXES = ['localhost', 'localdomain', 'local', 'internal', 'home.arpa', 'invalid'];

/** The reserved suffix `hostname` falls under (see RESERVED_NAME_SUFFIXES), or null. */
export function reservedHostName(hostname: string): string | null {
  const name = bare(hostname).toLowerCase().replace(/\.+$/, '');
  if (name === '') return 'localhost';
  return RESERVED_NAME_SUFFIXES.find((suffix) => name === suffix || name.endsWith(`.${suffix}`)) ?? null;
}

function checkHostName(hostname: string, opts: SsrfGuardOptions): void {
  if (opts.allowPrivate) return;
  const reserved = reservedHostName(hostname);
  if (reserved) throw new SsrfBlockedError('reservedName', bare(hostname), `.${reserved} names are never public; refused without a lookup`);
}

/** Resolve all addresses of `hostname` via `opts.lookup` (default dns.lookup). Rejects on DNS error. */
function resolveAll(hostname: string, opts: SsrfGuardOptions): Promise<dns.LookupAddress[]> {
  const lookup = opts.lookup ?? (dns.lookup as unknown as LookupFunction);
  return new Promise((resolve, reject) => {
    lookup(hostname, { all: true, family: 0 } as dns.LookupOptions, (err, address, family) => {
      if (err) return reject(err);
      const list = Array.isArray(address) ? address : [{ address: address as string, family: family ?? (net.isIPv6(address as string) ? 6 : 4) }];
      resolve(list);
    });
  });
}

/** Resolve + check every address; returns them all (non-empty) or throws SsrfBlockedError. */
async function resolveChecked(hostname: string, port: number, opts: SsrfGuardOptions): Promise<dns.LookupAddress[]> {
  const list = await resolveAll(hostname, opts);
  if (list.length === 0) throw new SsrfBlockedError('unresolvable', hostname, 'no addresses');
  for (const a of list) {
    try {
      checkAddress(a.address, opts, port);
    } catch (e) {
      if (e instanceof SsrfBlockedError) {
        throw new SsrfBlockedError(e.reason, hostname, undefined, { hostname, addresses: list.map((x) => x.address) });
      }
      throw e;
    }
  }
  return list;
}

/**
 * Parses and checks a URL. Returns the parsed `URL` (canonical host).
 * Throws `InvalidUrlError` when unparseable or the scheme is not http/https (file:, gopher:, ftp:,
 * javascript:, data:, ...), or the host is empty. Throws `SsrfBlockedError` when the port is not in
 * `opts.allowedPorts`, an IP-literal host is non-public, or ANY address the hostname resolves to
 * (via `opts.lookup`, default dns.lookup) is non-public. DNS failures reject with the resolver's error.
 * This is a pre-check; `createGuardedFetch` re-checks at connect time against the address used.
 */
export async function checkUrl(url: string, opts: SsrfGuardOptions = {}): Promise<URL> {
  const u = parseHttpUrl(url);
  const port = defaultPort(u);
  checkPort(port, u.hostname, opts);
  const host = bare(u.hostname);
  if (net.isIP(host)) {
    checkAddress(host, opts, port);
  } else {
    checkHostName(host, opts);
    await resolveChecked(host, port, opts);
  }
  return u;
}

function parseHttpUrl(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new InvalidUrlError('unparseable', String(url));
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new InvalidUrlError(`scheme ${u.protocol} not allowed (http/https only)`, String(url));
  }
  if (!u.hostname) throw new InvalidUrlError('empty host', String(url));
  return u;
}

/** Finds an SsrfBlockedError / InvalidUrlError in an error's cause chain (and AggregateError members). */
function findGuardError(err: unknown, depth = 0): SsrfBlockedError | InvalidUrlError | null {
  if (!err || typeof err !== 'object' || depth > 8) return null;
  if (err instanceof SsrfBlockedError || err instanceof InvalidUrlError) return err;
  const e = err as { cause?: unknown; errors?: unknown[] };
  for (const inner of e.errors ?? []) {
    const found = findGuardError(inner, depth + 1);
    if (found) return found;
  }
  return findGuardError(e.cause, depth + 1);
}

/** Headers that carry credentials; dropped when a redirect changes origin. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'api-key', 'x-goog-api-key'];

/** The fetch function returned by `createGuardedFetch` (same shape as lib/probe FetchLike). */
export type GuardedFetch = ((input: string | URL, init?: RequestInit) => Promise<Response>) & {
  /** The undici Agent behind it; `close()` it when done (tests, shutdown). */
  readonly dispatcher: Agent;
};

/**
 * Builds a fetch whose every connection is checked. Uses undici `fetch` with an undici `Agent`
 * whose connector resolves the host once (all addresses), rejects if any is non-public (see
 * `checkAddress`) or the port is not allowed, and connects to exactly those addresses.
 * Redirects (301/302/303/307/308) are followed manually up to `opts.maxRedirects` (default 3):
 * each Location is re-checked; 303 (and 301/302 after a non-GET/HEAD) become GET without body;
 * credential headers (Authorization, x-api-key, api-key, cookie, ...) are dropped when the origin
 * changes. With `init.redirect === 'manual'` the first response is returned unfollowed.
 * Rejects with `SsrfBlockedError` / `InvalidUrlError` (unwrapped from undici's `TypeError('fetch
 * failed')` cause chain) when refusing; other network errors reject as undici reports them.
 */
export function createGuardedFetch(opts: SsrfGuardOptions = {}): GuardedFetch {
  const maxRedirects = opts.maxRedirects ?? 3;
  // hostname alias → checked addresses for one in-flight connect attempt. net/tls call the base
  // connector's lookup with the alias instead of asking DNS again, so they connect to exactly the
  // addresses that were checked.
  const pinnedByAlias = new Map<string, dns.LookupAddress[]>();
  const pinnedLookup = (hostname: string, o: dns.LookupOptions, cb: (...args: unknown[]) => void): void => {
    const list = pinnedByAlias.get(hostname);
    if (!list) return cb(new SsrfBlockedError('unchecked', hostname, 'no checked address'));
    const fam = o?.family === 4 || o?.family === 6 ? o.family : 0;
    const chosen = fam ? list.filter((a) => a.family === fam) : list;
    if (chosen.length === 0) {
      return cb(Object.assign(new Error(`no IPv${fam} address for ${hostname}`), { code: 'ENOTFOUND' }));
    }
    if (o?.all) cb(null, chosen);
    else cb(null, chosen[0]!.address, chosen[0]!.family);
  };
  const base = buildConnector({ lookup: pinnedLookup as unknown as LookupFunction, ...(opts.ca ? { ca: opts.ca } : {}) });

  const connect: buildConnector.connector = (options, callback) => {
    const host = bare(options.hostname);
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    const fail = (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null);
    try {
      checkPort(port, host, opts);
      if (net.isIP(host)) {
        checkAddress(host, opts, port);
        // IP literal: net.connect never calls lookup; it connects straight to the checked literal.
        return base({ ...options, hostname: host }, callback);
      }
      checkHostName(host, opts);
    } catch (e) {
      return fail(e);
    }
    resolveChecked(host, port, opts).then((list) => {
      // Unique alias per attempt so concurrent connects to one name never share answers.
      const alias = `${host}.${Math.random().toString(36).slice(2)}.ssrf-pin.invalid`;
      pinnedByAlias.set(alias, list);
      const servername = options.servername || (options.protocol === 'https:' ? host : undefined);
      try {
        base({ ...options, hostname: alias, servername }, (...args) => {
          pinnedByAlias.delete(alias);
          callback(...args);
        });
      } catch (e) {
        pinnedByAlias.delete(alias);
        fail(e);
      }
    }, fail);
  };

  const agent = new Agent({ connect });

  const guarded = async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    let url = parseHttpUrl(String(input));
    let method = (init.method ?? 'GET').toUpperCase();
    let body = init.body;
    const headers = new Headers(init.headers);
    const followManually = init.redirect !== 'manual';
    for (let hop = 0; ; hop++) {
      await checkUrl(url.href, opts);
      let res: Response;
      try {
        res = (await undiciFetch(url, {
          ...(init as UndiciRequestInit),
          method,
          body: body as UndiciRequestInit['body'],
          headers: headers as unknown as UndiciRequestInit['headers'],
          redirect: 'manual',
          dispatcher: agent,
        })) as unknown as Response;
      } catch (e) {
        throw findGuardError(e) ?? e;
      }
      const location = res.headers.get('location');
      if (!followManually || ![301, 302, 303, 307, 308].includes(res.status) || !location) return res;
      await res.body?.cancel().catch(() => undefined);
      if (hop >= maxRedirects) {
        throw new SsrfBlockedError('too_many_redirects', url.href, `more than ${maxRedirects}`);
      }
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new InvalidUrlError('unparseable redirect Location', location);
      }
      next = parseHttpUrl(next.href);
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method !== 'GET' && method !== 'HEAD')) {
        if (method !== 'HEAD') method = 'GET';
        body = undefined;
        headers.delete('content-type');
        headers.delete('content-length');
      }
      if (next.origin !== url.origin) for (const h of CREDENTIAL_HEADERS) headers.delete(h);
      url = next;
    }
  };
  return Object.assign(guarded, { dispatcher: agent });
}
