/**
 * The cached share of a measurement's prompt in SQL (lib/stats/cached-input-share, decision 291):
 * cached_input_tokens ÷ input_tokens_reported as float8, null when either is null, the prompt has
 * no input tokens, or the cached count exceeds it. Shared by the rollups, the window partials and
 * the leaderboard's raw edges, so the three put the same value in the same sketch bucket.
 */
import { sql } from 'drizzle-orm';

/** The share expression over the measurements row aliased `alias` (e.g. 'm'). */
export function cachedInputShareSql(alias: string) {
  const cached = sql.raw(`${alias}.cached_input_tokens`);
  const input = sql.raw(`${alias}.input_tokens_reported`);
  return sql`(case when ${input} > 0 and ${cached} >= 0 and ${cached} <= ${input} then ${cached}::float8 / ${input}::float8 end)`;
}
