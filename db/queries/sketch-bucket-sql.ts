/**
 * The sketch bucket of a value in SQL (lib/stats/sketch sketchIndex), shared by the rollups, the
 * window partials and the leaderboard's raw edges, so the three put a value in the same bucket. On
 * its own so those query modules do not import each other (issue 28: no import cycles).
 */
import { sql } from 'drizzle-orm';
import { SKETCH_LN_GAMMA } from '@/lib/stats/sketch';
import { RAW_ZERO } from '@/lib/stats/window-stats';

type SqlExpr = ReturnType<typeof sql.raw> | ReturnType<typeof sql>;

/** ⌈ln x / ln γ⌉ (lib/stats/sketch sketchIndex) in SQL, with ln γ passed as the exact double the TypeScript side uses. */
function lnBucketSql(x: SqlExpr) {
  return sql`ceil(ln(${x}) / ${sql.raw(String(SKETCH_LN_GAMMA))}::float8)`;
}

/** The SQL bucket expression of lib/stats/sketch as a JSON key: the index as text, 'z' for x ≤ 0. */
export function sketchBinSql(x: SqlExpr) {
  return sql`case when ${x} <= 0 then 'z' else ${lnBucketSql(x)}::bigint::text end`;
}

/** The same bucket as an int (lib/stats/window-stats RawRows bins): RAW_ZERO for x ≤ 0, null for null. */
export function sketchIndexSql(x: SqlExpr) {
  return sql`case when ${x} <= 0 then ${sql.raw(String(RAW_ZERO))} else ${lnBucketSql(x)}::int end`;
}
