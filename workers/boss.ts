import { PgBoss } from 'pg-boss';

/**
 * Creates the pg-boss instance shared by schedulers and workers. Postgres is the coordinator:
 * cron state, job claims (SKIP LOCKED) and LISTEN/NOTIFY wake-ups all live in the `pgboss` schema.
 * `superviseSeconds` (default 10) paces the supervisor that fails jobs whose worker stopped sending
 * job heartbeats (a killed worker's probe is retried that much sooner, docs/decisions/092).
 */
export function createBoss(connectionString: string, opts: { schedule: boolean; supervise: boolean; superviseSeconds?: number }): PgBoss {
  const boss = new PgBoss({
    connectionString,
    schema: 'pgboss',
    useListenNotify: true,
    schedule: opts.schedule,
    supervise: opts.supervise,
    superviseIntervalSeconds: opts.superviseSeconds ?? 10,
    monitorIntervalSeconds: opts.superviseSeconds ?? 10,
    max: 6,
  });
  return boss;
}
