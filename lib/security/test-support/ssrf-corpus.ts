/**
 * Hostile-input corpus for the SSRF guard (lib/security/ssrf-guard.ts), test data only, exported so reports can
 * print it. `../ssrf-corpus.test.ts` asserts every row against `checkUrl` and `createGuardedFetch`
 * using `corpusLookup` as the DNS resolver (no real DNS, no real network).
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import net from 'node:net';

/** One hostile input: the URL, why it is dangerous, and the error kind the guard must answer. */
export interface HostileUrl {
  /** Input passed to checkUrl / the guarded fetch, verbatim. */
  url: string;
  /** What the input tries (human-readable). */
  why: string;
  /** Expected refusal: 'blocked' (SsrfBlockedError) or 'invalid_url' (InvalidUrlError). */
  expect: 'blocked' | 'invalid_url';
}

/**
 * Test DNS zone used by `corpusLookup`: lower-case hostname (no trailing dot) → addresses.
 * Names not listed answer ENOTFOUND.
 */
export const CORPUS_DNS: Readonly<Record<string, readonly string[]>> = {
  localhost: ['127.0.0.1', '::1'],
  'localhost.localdomain': ['127.0.0.1'],
  'ip6-localhost': ['::1'],
  '127.0.0.1.nip.io': ['127.0.0.1'],
  'metadata.google.internal': ['169.254.169.254'],
  'instance-data.ec2.internal': ['169.254.169.254'],
  'mixed.test': ['93.184.216.34', '10.0.0.5'],
  'mixed6.test': ['2606:4700:4700::1111', 'fd12:3456::1'],
  'private6.test': ['fd12::1'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'compat.test': ['::7f00:1'],
  'cgnat.test': ['100.100.100.100'],
  'router.test': ['192.168.0.1'],
  'linklocal6.test': ['fe80::1'],
  'zero.test': ['0.0.0.0'],
  'nat64-private.test': ['64:ff9b::a00:1'],
  'empty.test': [],
  // public answers
  'api.public.test': ['104.18.6.192'],
  'dual.public.test': ['1.1.1.1', '2606:4700:4700::1111'],
  'v6.public.test': ['2001:4860:4860::8888'],
  'nat64-public.test': ['64:ff9b::808:808'],
};

/** node:dns-compatible lookup answering from CORPUS_DNS (honours `all`; ignores `family` filtering for checks). */
export function corpusLookup(
  hostname: string,
  options: LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  const key = hostname.toLowerCase().replace(/\.$/, '');
  const addrs = CORPUS_DNS[key];
  queueMicrotask(() => {
    if (!addrs) {
      const err: NodeJS.ErrnoException = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
        code: 'ENOTFOUND',
      });
      return callback(err, []);
    }
    const list = addrs.map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
    if (options?.all) callback(null, list);
    else if (list[0]) callback(null, list[0].address, list[0].family);
    else callback(Object.assign(new Error(`getaddrinfo ENODATA ${hostname}`), { code: 'ENODATA' }), []);
  });
}

/** Hostile URLs: every one must be refused. */
export const SSRF_CORPUS: readonly HostileUrl[] = [
  // loopback, every spelling
  { url: 'http://127.0.0.1', why: 'IPv4 loopback', expect: 'blocked' },
  { url: 'http://127.0.0.1:8080/admin', why: 'loopback with port and path', expect: 'blocked' },
  { url: 'https://127.0.0.1:443/', why: 'loopback over https', expect: 'blocked' },
  { url: 'http://127.255.255.254', why: 'loopback /8, not just .1', expect: 'blocked' },
  { url: 'http://2130706433', why: 'decimal IPv4 of 127.0.0.1', expect: 'blocked' },
  { url: 'http://0x7f000001', why: 'hex IPv4 of 127.0.0.1', expect: 'blocked' },
  { url: 'http://017700000001', why: 'octal IPv4 of 127.0.0.1', expect: 'blocked' },
  { url: 'http://127.1', why: 'short-form IPv4 (127.0.0.1)', expect: 'blocked' },
  { url: 'http://0177.0.0.1', why: 'octal first octet', expect: 'blocked' },
  { url: 'http://0x7f.0.0.1', why: 'hex first octet', expect: 'blocked' },
  { url: 'http://127.0.0.1./', why: 'trailing dot', expect: 'blocked' },
  { url: 'http://%31%32%37.0.0.1/', why: 'percent-encoded host digits', expect: 'blocked' },
  { url: 'http://\u2460\u2461\u2466.0.0.1/', why: 'Unicode circled digits (NFKC → 127.0.0.1)', expect: 'blocked' },
  { url: 'http://[::1]', why: 'IPv6 loopback', expect: 'blocked' },
  { url: 'http://[0:0:0:0:0:0:0:1]:80/', why: 'IPv6 loopback, long form', expect: 'blocked' },
  { url: 'http://[::ffff:127.0.0.1]', why: 'IPv4-mapped IPv6 loopback (dotted)', expect: 'blocked' },
  { url: 'http://[::ffff:7f00:1]', why: 'IPv4-mapped IPv6 loopback (hex)', expect: 'blocked' },
  { url: 'http://[0:0:0:0:0:ffff:127.0.0.1]/', why: 'IPv4-mapped, long form', expect: 'blocked' },
  { url: 'http://[::127.0.0.1]', why: 'IPv4-compatible IPv6 (deprecated ::a.b.c.d)', expect: 'blocked' },
  { url: 'http://[::ffff:0:7f00:1]', why: 'IPv4-translated ::ffff:0:a.b.c.d (RFC 6145)', expect: 'blocked' },
  // unspecified
  { url: 'http://0', why: '0 → 0.0.0.0 (reaches localhost on Linux)', expect: 'blocked' },
  { url: 'http://0.0.0.0:3999/', why: 'unspecified IPv4 with port', expect: 'blocked' },
  { url: 'http://[::]/', why: 'unspecified IPv6', expect: 'blocked' },
  // cloud metadata and link-local
  { url: 'http://169.254.169.254/latest/meta-data/', why: 'AWS/GCP/Azure metadata (link-local)', expect: 'blocked' },
  { url: 'http://[::ffff:169.254.169.254]/', why: 'metadata via IPv4-mapped IPv6', expect: 'blocked' },
  { url: 'http://[::ffff:a9fe:a9fe]/', why: 'metadata via IPv4-mapped IPv6 (hex)', expect: 'blocked' },
  { url: 'http://2852039166/', why: 'metadata as decimal', expect: 'blocked' },
  { url: 'http://169.254.170.2/v2/credentials', why: 'ECS task credentials endpoint', expect: 'blocked' },
  { url: 'http://[fd00:ec2::254]/', why: 'AWS IMDS IPv6 (unique-local)', expect: 'blocked' },
  { url: 'http://[fe80::1]', why: 'IPv6 link-local', expect: 'blocked' },
  // private / CGNAT / unique-local
  { url: 'http://10.0.0.1', why: 'RFC 1918 10/8', expect: 'blocked' },
  { url: 'http://172.16.0.1', why: 'RFC 1918 172.16/12 (start)', expect: 'blocked' },
  { url: 'http://172.31.255.254', why: 'RFC 1918 172.16/12 (end)', expect: 'blocked' },
  { url: 'http://192.168.1.1', why: 'RFC 1918 192.168/16', expect: 'blocked' },
  { url: 'http://192.168.0.1:22/', why: 'private address, SSH port', expect: 'blocked' },
  { url: 'http://[::ffff:10.0.0.1]/', why: 'private via IPv4-mapped IPv6', expect: 'blocked' },
  { url: 'http://100.64.0.1', why: 'carrier-grade NAT 100.64/10', expect: 'blocked' },
  { url: 'http://[fd00::1]', why: 'IPv6 unique-local fc00::/7 (fd)', expect: 'blocked' },
  { url: 'http://[fc00::1]', why: 'IPv6 unique-local fc00::/7 (fc)', expect: 'blocked' },
  // multicast, broadcast, reserved, benchmarking, documentation
  { url: 'http://224.0.0.1', why: 'IPv4 multicast', expect: 'blocked' },
  { url: 'http://[ff02::1]', why: 'IPv6 multicast', expect: 'blocked' },
  { url: 'http://255.255.255.255', why: 'limited broadcast', expect: 'blocked' },
  { url: 'http://240.0.0.1', why: 'reserved 240/4', expect: 'blocked' },
  { url: 'http://192.0.0.8', why: 'IETF protocol assignments 192.0.0/24', expect: 'blocked' },
  { url: 'http://198.18.0.1', why: 'benchmarking 198.18/15', expect: 'blocked' },
  { url: 'http://198.19.255.1', why: 'benchmarking 198.18/15 (second /16)', expect: 'blocked' },
  { url: 'http://192.0.2.1', why: 'documentation TEST-NET-1', expect: 'blocked' },
  { url: 'http://198.51.100.7', why: 'documentation TEST-NET-2', expect: 'blocked' },
  { url: 'http://203.0.113.9', why: 'documentation TEST-NET-3', expect: 'blocked' },
  { url: 'http://[2001:db8::1]', why: 'IPv6 documentation 2001:db8::/32', expect: 'blocked' },
  { url: 'http://[100::1]', why: 'IPv6 discard-only 100::/64', expect: 'blocked' },
  { url: 'http://[4000::1]', why: 'IPv6 outside 2000::/3 (unallocated)', expect: 'blocked' },
  // IPv6 transition forms embedding a private IPv4
  { url: 'http://[64:ff9b::7f00:1]', why: 'NAT64 64:ff9b::/96 embedding 127.0.0.1', expect: 'blocked' },
  { url: 'http://[64:ff9b::a9fe:a9fe]', why: 'NAT64 embedding 169.254.169.254', expect: 'blocked' },
  { url: 'http://[64:ff9b:1::808:808]', why: 'NAT64 local-use 64:ff9b:1::/48', expect: 'blocked' },
  { url: 'http://[2002:7f00:1::1]', why: '6to4 2002::/16 embedding 127.0.0.1', expect: 'blocked' },
  { url: 'http://[2002:c0a8:101::1]', why: '6to4 embedding 192.168.1.1', expect: 'blocked' },
  { url: 'http://[2001::1]', why: 'Teredo 2001::/32', expect: 'blocked' },
  // userinfo / fragment tricks
  { url: 'http://evil.com@127.0.0.1', why: 'userinfo: real host is 127.0.0.1', expect: 'blocked' },
  { url: 'http://user:pass@10.0.0.1/', why: 'credentials in userinfo, private host', expect: 'blocked' },
  { url: 'http://127.0.0.1#@evil.com', why: 'fragment hides the real host', expect: 'blocked' },
  { url: 'http://evil.com:80@169.254.169.254/', why: 'userinfo with port-like text', expect: 'blocked' },
  // names that resolve (test resolver) to blocked addresses
  { url: 'http://localhost', why: 'name → 127.0.0.1 and ::1', expect: 'blocked' },
  { url: 'http://LOCALHOST.:8080/', why: 'upper-case name with trailing dot → loopback', expect: 'blocked' },
  { url: 'http://localhost.localdomain', why: 'name → 127.0.0.1', expect: 'blocked' },
  { url: 'http://ip6-localhost', why: 'name → ::1', expect: 'blocked' },
  { url: 'http://127.0.0.1.nip.io', why: 'wildcard-DNS name → 127.0.0.1', expect: 'blocked' },
  { url: 'http://metadata.google.internal/computeMetadata/v1/', why: 'GCP metadata name → 169.254.169.254', expect: 'blocked' },
  { url: 'http://instance-data.ec2.internal/', why: 'EC2 metadata name → 169.254.169.254', expect: 'blocked' },
  { url: 'http://mixed.test', why: 'one public + one private answer (any non-public blocks)', expect: 'blocked' },
  { url: 'http://mixed6.test', why: 'public IPv6 + unique-local IPv6 answer', expect: 'blocked' },
  { url: 'http://private6.test', why: 'name → fd12::1', expect: 'blocked' },
  { url: 'http://mapped.test', why: 'name → ::ffff:127.0.0.1', expect: 'blocked' },
  { url: 'http://compat.test', why: 'name → ::7f00:1 (IPv4-compatible)', expect: 'blocked' },
  { url: 'http://cgnat.test', why: 'name → 100.100.100.100', expect: 'blocked' },
  { url: 'http://router.test', why: 'name → 192.168.0.1', expect: 'blocked' },
  { url: 'http://linklocal6.test', why: 'name → fe80::1', expect: 'blocked' },
  { url: 'http://zero.test', why: 'name → 0.0.0.0', expect: 'blocked' },
  { url: 'http://nat64-private.test', why: 'name → 64:ff9b::10.0.0.1', expect: 'blocked' },
  { url: 'http://empty.test', why: 'name with zero addresses', expect: 'blocked' },
  // schemes and malformed input
  { url: 'file:///etc/passwd', why: 'local file read', expect: 'invalid_url' },
  { url: 'gopher://127.0.0.1:6379/_INFO', why: 'gopher smuggling into Redis', expect: 'invalid_url' },
  { url: 'ftp://example.com/', why: 'FTP', expect: 'invalid_url' },
  { url: 'javascript:alert(1)', why: 'javascript: URL', expect: 'invalid_url' },
  { url: 'data:text/plain,hello', why: 'data: URL', expect: 'invalid_url' },
  { url: 'dict://127.0.0.1:11211/stat', why: 'dict: smuggling into memcached', expect: 'invalid_url' },
  { url: 'ldap://127.0.0.1/', why: 'LDAP', expect: 'invalid_url' },
  { url: 'ws://example.com/', why: 'WebSocket scheme', expect: 'invalid_url' },
  { url: 'blob:http://example.com/x', why: 'blob: URL', expect: 'invalid_url' },
  { url: '//127.0.0.1/', why: 'scheme-relative (no base)', expect: 'invalid_url' },
  { url: 'http://', why: 'empty host', expect: 'invalid_url' },
  { url: 'http://[::1', why: 'malformed IPv6 literal', expect: 'invalid_url' },
  { url: 'http://256.0.0.1/', why: 'out-of-range IPv4 octet', expect: 'invalid_url' },
  { url: 'not a url', why: 'garbage', expect: 'invalid_url' },
];

/** Ordinary public destinations: must pass checkUrl (no connection is made for these). */
export const PUBLIC_CORPUS: readonly { url: string; why: string }[] = [
  { url: 'http://8.8.8.8/', why: 'Google DNS IPv4 literal' },
  { url: 'https://1.1.1.1/', why: 'Cloudflare DNS IPv4 literal' },
  { url: 'https://[2606:4700:4700::1111]/', why: 'Cloudflare IPv6 literal' },
  { url: 'https://[2001:4860:4860::8888]:443/', why: 'Google IPv6 literal' },
  { url: 'http://93.184.216.34:8080/v1', why: 'public IPv4 with port' },
  { url: 'http://134744072/', why: 'decimal 8.8.8.8 (canonicalised, public)' },
  { url: 'http://[::ffff:8.8.8.8]/', why: 'IPv4-mapped public address' },
  { url: 'http://[64:ff9b::808:808]/', why: 'NAT64 of public 8.8.8.8 (DNS64 hosts)' },
  { url: 'http://[2002:808:808::1]/', why: '6to4 of public 8.8.8.8' },
  { url: 'https://api.public.test/v1/chat/completions', why: 'name → public IPv4' },
  { url: 'https://dual.public.test/', why: 'name → public IPv4 + IPv6' },
  { url: 'https://v6.public.test/', why: 'name → public IPv6' },
  { url: 'https://nat64-public.test/', why: 'name → NAT64 of public IPv4' },
  { url: 'http://172.32.0.1/', why: 'just outside 172.16/12' },
  { url: 'http://100.128.0.1/', why: 'just outside 100.64/10' },
  { url: 'http://198.20.0.1/', why: 'just outside 198.18/15' },
  { url: 'http://11.0.0.1/', why: 'just outside 10/8' },
];
