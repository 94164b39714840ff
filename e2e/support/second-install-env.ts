/**
 * The environment of a second `tokenpace start` (or CLI command) beside this e2e run's install:
 * its own web, Postgres and reference-server ports and data directory, the web build of this run
 * (TOKENPACE_NEXT_DIST_DIR as playwright.config.ts picks it from E2E_PORT) and no DATABASE_URL
 * (the embedded Postgres); `extra` adds variables.
 */
export function secondInstallEnv(
  p: { port: number; pgPort: number; referencePort: number; dataDir: string },
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  const mainPort = Number(process.env.E2E_PORT ?? 3210);
  return {
    ...process.env,
    PORT: String(p.port),
    TOKENPACE_DATA_DIR: p.dataDir,
    TOKENPACE_PG_PORT: String(p.pgPort),
    TOKENPACE_REFERENCE_PORT: String(p.referencePort),
    TOKENPACE_NEXT_DIST_DIR: process.env.TOKENPACE_NEXT_DIST_DIR ?? (mainPort === 3210 ? '.next' : `.next-e2e-${mainPort}`),
    ...extra,
    DATABASE_URL: '',
  };
}
