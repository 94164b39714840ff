/**
 * The names of the tables a Postgres plan reads: the Relation Name of every node of an
 * `explain (format json)` result's "QUERY PLAN" value (an array of plans; nested under Plan and
 * Plans). For tests and benches that check which partitions a query touches.
 */
export function planRelations(queryPlan: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (n: unknown) => {
    if (!n || typeof n !== 'object') return;
    const node = n as Record<string, unknown>;
    if (typeof node['Relation Name'] === 'string') out.add(node['Relation Name']);
    for (const v of Object.values(node)) if (Array.isArray(v)) v.forEach(walk);
    if (node.Plan) walk(node.Plan);
  };
  ((queryPlan ?? []) as unknown[]).forEach(walk);
  return out;
}
