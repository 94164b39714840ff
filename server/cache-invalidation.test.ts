/**
 * Cross-instance cache invalidation: a data change recorded through one handle (its NOTIFY) drops
 * the cached answers of another and runs its hooks; a killed LISTEN connection is re-established by postgres.js; and a
 * listener that lost Postgres altogether (postgres.js gives up re-LISTENing) is brought back by the
 * watchdog once Postgres is reachable again. Real Postgres; the outage is a TCP relay we close.
 */
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, expect, it } from 'vitest';
import { openDb, type DbHandle } from '@/db/client';
import { listenForDataChanges, notifyDataChanged, onDataChanged, type DataChangeListener } from './cache-invalidation';
import { useTestDatabase } from '@/db/test-support/use-test-database';
import { ANY_TIME, cachedAnswer, hasCachedAnswer, syncDataVersion } from './answer-cache';

const t = useTestDatabase();
const handles: DbHandle[] = [];
const listeners: DataChangeListener[] = [];

afterAll(async () => {
  for (const l of listeners) await l.stop();
  for (const h of handles) await h.close().catch(() => {});
});

/** Records a rollup change every 500 ms until `listener` has received more than `moreThan` changes; fails after `timeoutMs`. */
async function notifyUntilReceived(listener: DataChangeListener, moreThan: number, timeoutMs: number): Promise<void> {
  await expect
    .poll(
      async () => {
        await notifyDataChanged(t.db, 'rollup');
        return listener.received;
      },
      { timeout: timeoutMs, interval: 500 },
    )
    .toBeGreaterThan(moreThan);
}

it('a data change from another handle drops cached answers and runs hooks; a killed LISTEN connection comes back', async () => {
  const web = openDb(t.url, 2);
  handles.push(web);
  let hookRuns = 0;
  onDataChanged(web.db, () => hookRuns++);
  const listener = listenForDataChanges(web.db, web.sql);
  listeners.push(listener);
  await listener.ready;
  await syncDataVersion(web.db); // the version this process serves (the first read drops anything cached before it)
  await cachedAnswer(web.db, 'k', ANY_TIME, async () => 1);
  // An answer outside the changed range stays.
  await cachedAnswer(web.db, 'old', { fromMs: 0, toMs: 1000 }, async () => 2);
  expect(hasCachedAnswer(web.db, 'k')).toBe(true);
  const runsBefore = hookRuns;
  await notifyDataChanged(t.db, 'rollup', { from: new Date(5000), to: new Date(9000) });
  await expect.poll(() => listener.received, { timeout: 10_000 }).toBe(1);
  await expect.poll(() => hasCachedAnswer(web.db, 'k'), { timeout: 10_000 }).toBe(false);
  expect(hasCachedAnswer(web.db, 'old')).toBe(true);
  expect(hookRuns).toBeGreaterThan(runsBefore);

  // Kill the LISTEN connection: postgres.js re-LISTENs; a later change still arrives.
  await t.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen %'`);
  await notifyUntilReceived(listener, 1, 20_000);
});

it('after Postgres was unreachable the listener LISTENs again (postgres.js or the watchdog), drops the caches, and counts each change once', async () => {
  const target = new URL(t.url);
  const sockets = new Set<net.Socket>();
  let relay: net.Server | null = null;
  const open = (port: number) =>
    new Promise<number>((resolve) => {
      relay = net.createServer((client) => {
        const upstream = net.connect(Number(target.port), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('error', () => {});
          s.on('close', () => sockets.delete(s));
        }
        client.pipe(upstream).pipe(client);
      });
      relay.listen(port, '127.0.0.1', () => resolve((relay!.address() as net.AddressInfo).port));
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      relay!.close(() => resolve());
    });
  const port = await open(0);
  const u = new URL(t.url);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  const web = openDb(u.toString(), 2);
  handles.push(web);
  const listener = listenForDataChanges(web.db, web.sql, { watchdogMs: 500 });
  listeners.push(listener);
  await listener.ready;

  // Outage: the LISTEN connection drops and postgres.js's one re-LISTEN fails (connection refused).
  await cut();
  await new Promise((r) => setTimeout(r, 1_500));
  await open(port);
  await cachedAnswer(web.db, 'k', ANY_TIME, async () => 1);
  // Back: LISTENing again (catching up with the changes it missed), changes arrive.
  await notifyUntilReceived(listener, 0, 30_000);
  await expect.poll(() => hasCachedAnswer(web.db, 'k'), { timeout: 10_000 }).toBe(false);
  // After the watchdog ran a few periods and earlier notifications settled (received stable for 1 s),
  // one change counts once (no duplicate subscriptions).
  let last = -1;
  await expect
    .poll(
      async () => {
        const stable = listener.received === last;
        last = listener.received;
        await new Promise((r) => setTimeout(r, 1_000));
        return stable && listener.received === last;
      },
      { timeout: 15_000, interval: 0 },
    )
    .toBe(true);
  const n0 = listener.received;
  await notifyDataChanged(t.db, 'rollup');
  await expect.poll(() => listener.received, { timeout: 10_000 }).toBeGreaterThan(n0);
  await new Promise((r) => setTimeout(r, 1_500));
  expect(listener.received).toBe(n0 + 1);
  await cut();
});
