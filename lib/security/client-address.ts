/**
 * Which address a request came from, for rate-limit keys (decision record 080).
 *
 * The only address a client cannot choose is the peer of the TCP connection. `X-Forwarded-For` is
 * believed only when that peer is one of the operator's proxies (`TOKENPACE_TRUSTED_PROXIES`):
 * the list is then read from the right, skipping trusted proxies, and the first address not in the
 * list is the client. Without trusted proxies the header is ignored entirely, so a forged header
 * cannot give a client a fresh rate-limit bucket per request.
 */
import ipaddr from 'ipaddr.js';

/** A parsed list of trusted proxies (addresses and CIDR ranges). */
export type TrustedProxies = ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]>;

/** Canonical text of an address (IPv4-mapped IPv6 unwrapped), or null when not an IP address. */
export function canonicalAddress(raw: string): string | null {
  const s = raw
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '');
  if (!ipaddr.isValid(s)) return null;
  return toComparable(ipaddr.parse(s)).toString();
}

/**
 * The rate-limit bucket of a canonical address (issue 19 #13): an IPv6 address counts as its /64
 * (`2001:db8:1:2::/64`), the smallest prefix one subscriber is normally given (RFC 6177, RFC 7934:
 * a host may pick any of 2^64 addresses in it); an IPv4 address as itself; anything else unchanged
 * (`unknown`).
 */
export function rateLimitBucket(address: string): string {
  if (!ipaddr.IPv6.isValid(address) || ipaddr.IPv4.isValid(address)) return address;
  const parts = ipaddr.IPv6.parse(address).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}

function toComparable(a: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress() ? (a as ipaddr.IPv6).toIPv4Address() : a;
}

/**
 * Parses `TOKENPACE_TRUSTED_PROXIES`: comma-separated IP addresses or CIDR ranges
 * (`10.0.0.1, 172.16.0.0/12, ::1`). Empty/undefined → no trusted proxy.
 * Throws Error naming the bad entry.
 */
export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  if (!value) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      try {
        if (entry.includes('/')) {
          const [addr, bits] = ipaddr.parseCIDR(entry);
          return [toComparable(addr), addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? bits - 96 : bits] as [
            ipaddr.IPv4 | ipaddr.IPv6,
            number,
          ];
        }
        const addr = toComparable(ipaddr.parse(entry));
        return [addr, addr.kind() === 'ipv4' ? 32 : 128] as [ipaddr.IPv4 | ipaddr.IPv6, number];
      } catch {
        throw new Error(`TOKENPACE_TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
      }
    });
}

function isTrusted(address: string, trusted: TrustedProxies): boolean {
  if (trusted.length === 0 || !ipaddr.isValid(address)) return false;
  const a = toComparable(ipaddr.parse(address));
  return trusted.some(([range, bits]) => range.kind() === a.kind() && a.match(range, bits));
}

/**
 * The client address of a request.
 * - `peerAddress`: the TCP peer (socket remote address), or null when unknown.
 * - `forwardedFor`: the `X-Forwarded-For` header value, or null.
 * - `trusted`: the operator's proxies (see parseTrustedProxies).
 * Returns the peer when it is not a trusted proxy (the header is ignored); otherwise the right-most
 * X-Forwarded-For entry that is not a trusted proxy (the left-most entry when all are trusted, the
 * peer when the header is absent or unparseable). Returns 'unknown' without a peer address.
 */
export function resolveClientAddress(input: { peerAddress: string | null; forwardedFor: string | null; trusted: TrustedProxies }): string {
  const peer = input.peerAddress ? canonicalAddress(input.peerAddress) : null;
  if (!peer) return 'unknown';
  if (!isTrusted(peer, input.trusted) || !input.forwardedFor) return peer;
  const hops = input.forwardedFor.split(',').map((p) => canonicalAddress(p));
  if (hops.some((h) => h === null)) return peer; // a proxy we trust would not write garbage
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isTrusted(hops[i]!, input.trusted)) return hops[i]!;
  }
  return hops[0] ?? peer;
}
