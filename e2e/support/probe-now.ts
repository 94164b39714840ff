/**
 * Probes named endpoints now, through the e2e server's own probe workers, instead of waiting for
 * the cron minutes that would probe them (issue 28: tests never wait for a cron minute; decision
 * 252's settable trigger, narrowed to the endpoints a spec set up). Sends what the schedule's
 * fan-out sends (`sendProbeJob`): one ordinary probe job per endpoint and slot, for `slots` minutes
 * two days back that no cron of this fresh server fired, so their job keys are new; each is
 * measured now. Once they are measured, the rollup job (which sends the precompute), so the board
 * and the precomputed answers take them in without waiting for the rollup's minute. The crons go on
 * as before; a spec's polls stay the proof of what it checks.
 */
import { eq, inArray } from 'drizzle-orm';
import { PgBoss } from 'pg-boss';
import { openDb } from '@/db/client';
import { measurements, workloads } from '@/db/schema';
import { QUEUES } from '@/lib/queues';
import { buildProbeJobKey } from '@/workers/queues';
import { sendProbeJob } from '@/workers/tasks/schedule-probes';
import { e2eDatabaseUrl } from './tokenpace-cli';

/** The e2e server's worker region (TOKENPACE_WORKER_REGION's default). */
const REGION = 'local';
/** A stuck probe's job expires after this long, s (as the worker's own: a whole probe plus a minute). */
const EXPIRE_SECONDS = 600;

/** Minutes already used by this process's calls (each call takes new ones). */
let usedSlots = 0;

/**
 * Enqueues `slots` probes of `workloadSlug` for each endpoint, waits until each has written its
 * measurement (at most `waitMs`; a probe still running then is left to finish), then sends the
 * rollup job. Returns how many of the probes were measured in that time.
 */
export async function probeNow(endpointIds: number[], workloadSlug: string, slots: number, waitMs = 120_000): Promise<number> {
  const url = e2eDatabaseUrl();
  const { db, close } = openDb(url, 1);
  const boss = new PgBoss({ connectionString: url, schema: 'pgboss', schedule: false, supervise: false });
  try {
    const [w] = await db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, workloadSlug));
    if (!w) throw new Error(`probeNow: no workload ${workloadSlug}`);
    await boss.start();
    const base = Math.floor(Date.now() / 60_000) * 60_000 - 2 * 86_400_000;
    const jobKeys: string[] = [];
    for (let s = 0; s < slots; s++) {
      const slotStart = new Date(base + usedSlots++ * 60_000).toISOString();
      for (const endpointId of endpointIds) {
        const key = { endpointId, workloadId: w.id, region: REGION, slotStart };
        jobKeys.push(buildProbeJobKey(key));
        await sendProbeJob(boss, { ...key, jobKey: jobKeys.at(-1)!, fidelity: false }, EXPIRE_SECONDS);
      }
    }
    const measured = async () => (await db.select({ id: measurements.id }).from(measurements).where(inArray(measurements.jobKey, jobKeys))).length;
    const until = Date.now() + waitMs;
    let done = await measured();
    while (done < jobKeys.length && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 500));
      done = await measured();
    }
    await boss.send(QUEUES.rollupMeasurements, {});
    return done;
  } finally {
    await boss.stop({ graceful: false }).catch(() => {});
    await close();
  }
}

/**
 * Sends the rollup job now (it sends the precompute after it), as its minute's cron would: for data
 * a spec wrote straight into the database (e2e/support/seed-synthetic-announced.ts), so the board
 * takes it in without waiting for the rollup's minute.
 */
export async function rollUpNow(): Promise<void> {
  const boss = new PgBoss({ connectionString: e2eDatabaseUrl(), schema: 'pgboss', schedule: false, supervise: false });
  try {
    await boss.start();
    await boss.send(QUEUES.rollupMeasurements, {});
  } finally {
    await boss.stop({ graceful: false }).catch(() => {});
  }
}
