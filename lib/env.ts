import { z } from 'zod';
import { parseTrustedProxies } from './security/client-address';

/**
 * The one place that reads process.env. Parsed once with zod so a bad value fails fast with the
 * variable's name. Other code imports `getEnv()`; nothing else touches process.env.
 */
const envSchema = z.object({
  /** Postgres connection string; when absent the CLI starts an embedded PostgreSQL. */
  DATABASE_URL: z.string().url().optional(),
  /** Web port for `tokenpace start` (default 3000). */
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Data directory for embedded Postgres, the secret key file and logs (default ./.tokenpace). */
  TOKENPACE_DATA_DIR: z.string().min(1).default('./.tokenpace'),
  /** Port of the embedded PostgreSQL (default 15432: below the ephemeral range 32768-60999 of Linux, and never the system's 5432). */
  TOKENPACE_PG_PORT: z.coerce.number().int().min(1).max(65535).default(15432),
  /** Region label this worker reports in every measurement. */
  TOKENPACE_WORKER_REGION: z.string().min(1).default('local'),
  /** Cron for the probe schedule (pg-boss cron, minute resolution). */
  TOKENPACE_PROBE_CRON: z.string().min(1).default('* * * * *'),
  /**
   * Share of probes (0..1, default 0.1) that are fidelity probes beyond the mandatory one per hour
   * per endpoint × workload (lib/fidelity, lib/probe/cadence).
   */
  TOKENPACE_FIDELITY_FRACTION: z.coerce.number().min(0).max(1).default(0.1),
  /** Port of the local calibration reference server started by `tokenpace start` (default 3999). */
  TOKENPACE_REFERENCE_PORT: z.coerce.number().int().min(1).max(65535).default(3999),
  /** AES-256-GCM key for provider API keys (64 hex chars or base64 of 32 bytes). */
  TOKENPACE_SECRET_KEY: z.string().optional(),
  /** Allow probes to loopback/private addresses (tests and local use only). */
  TOKENPACE_ALLOW_PRIVATE: z
    .enum(['0', '1', 'true', 'false'])
    .default('0')
    .transform((v) => v === '1' || v === 'true'),
  /** Public origin of the site: every absolute link and the same-origin checks (default http://localhost:PORT); never taken from request headers. */
  TOKENPACE_PUBLIC_URL: z
    .string()
    .url()
    .refine((v) => /^https?:$/.test(new URL(v).protocol), 'must be an http(s) URL, e.g. https://tokenpace.example')
    .optional(),
  /**
   * Reverse proxies in front of the web process whose X-Forwarded-For is believed: comma-separated
   * IP addresses or CIDR ranges (e.g. `127.0.0.1, 10.0.0.0/8`). Unset: the client address is the
   * TCP peer and X-Forwarded-For is ignored (decision record 080).
   */
  TOKENPACE_TRUSTED_PROXIES: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      try {
        parseTrustedProxies(v);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: e instanceof Error ? e.message : 'invalid' });
      }
    }),
  /** Requests per minute per client IP to the public read API (/api/v1 GETs); 0 turns the limit off. */
  TOKENPACE_PUBLIC_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  /**
   * New on-demand snapshot rows (past `at=` boards, uncommon windows, regions) one web process may
   * write per hour (server/snapshot-budget, decision 163); beyond it such questions get 503.
   */
  TOKENPACE_SNAPSHOT_BUDGET_PER_HOUR: z.coerce.number().int().min(1).max(10_000_000).default(600),
  /** Most submissions one account may have waiting for review at once. */
  TOKENPACE_MAX_PENDING_SUBMISSIONS: z.coerce.number().int().min(1).max(1000).default(5),
  /**
   * Raw-measurement retention in days (≥ 7). Unset (the default): raw measurements are kept
   * forever. Set: the daily apply-retention task deletes older days after re-rolling them up.
   */
  TOKENPACE_RAW_RETENTION_DAYS: z.coerce.number().int().min(7).max(36500).optional(),
  /** nice value the probe worker asks for (decision 184): −20…19 or `off`; default −10 */
  TOKENPACE_PROBE_NICE: z
    .string()
    .regex(/^(off|-?\d{1,2})$/i, 'expected an integer from -20 to 19, or "off"')
    .optional(),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

/**
 * Parsed environment. Throws an Error naming each bad variable (e.g. "PORT: Too big").
 * Cached after the first call; pass `fresh` to re-read (tests).
 */
export function getEnv(fresh = false): Env {
  if (cached && !fresh) return cached;
  // An empty variable means "unset" (shells and CI often export NAME= to clear a value).
  const raw = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n  ${lines.join('\n  ')}`);
  }
  cached = parsed.data;
  return cached;
}

/**
 * Provider API key variables by name, read from the environment (e.g. GROQ_API_KEY).
 * Returns the value or null when unset/empty.
 */
export function readApiKeyVariable(name: string): string | null {
  if (!/^[A-Z][A-Z0-9_]*$/.test(name)) throw new Error(`invalid API key variable name: ${name}`);
  const value = process.env[name];
  return value && value.length > 0 ? value : null;
}

/** Variable names whose values are secrets (provider keys, tokens, passwords, the secret key). */
const SECRET_NAME = /(^|_)(API_KEY|SECRET|SECRET_KEY|SECRET_ACCESS_KEY|TOKEN|SESSION_TOKEN|ACCESS_TOKEN|PASSWORD)$/;
let secretsCache: { env: NodeJS.ProcessEnv; values: string[] } | null = null;

/**
 * Every secret configured in this process's environment (values of variables named like a key,
 * token, secret or password, and the password of DATABASE_URL), at least 8 characters: what every
 * stored provider-controlled text is redacted of besides the probed endpoint's own key
 * (lib/probe/redact, issue 19 #12). Cached until the environment object changes (`fresh` re-reads).
 */
export function configuredSecrets(fresh = false): string[] {
  if (secretsCache && secretsCache.env === process.env && !fresh) return secretsCache.values;
  const values = new Set<string>();
  for (const [name, value] of Object.entries(process.env)) if (value && value.length >= 8 && SECRET_NAME.test(name)) values.add(value);
  try {
    const password = process.env.DATABASE_URL ? decodeURIComponent(new URL(process.env.DATABASE_URL).password) : '';
    if (password.length >= 8) values.add(password);
  } catch {
    // not a URL: nothing to add
  }
  secretsCache = { env: process.env, values: [...values] };
  return secretsCache.values;
}
