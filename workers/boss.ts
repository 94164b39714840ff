import { PgBoss } from 'pg-boss';

/**
 * Creates the pg-boss instance shared by schedulers and workers. Postgres is the coordinator:
 * cron state, job claims (SKIP LOCKED) and LISTEN/NOTIFY wake-ups all live in the `pgboss` schema.
 */
export function createBoss(connectionString: string, opts: { schedule: boolean; supervise: boolean }): PgBoss {
  const boss = new PgBoss({
    connectionString,
    schema: 'pgboss',
    useListenNotify: true,
    schedule: opts.schedule,
    supervise: opts.supervise,
    max: 6,
  });
  return boss;
}
