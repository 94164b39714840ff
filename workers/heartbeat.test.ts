/**
 * Issue 23 low item: a failed heartbeat logs one short line, never its metrics payload (tens of
 * kilobytes). Real Postgres (the heartbeat table made unwritable), the real pino logger writing to a
 * captured stream; then the table is back and the next beat succeeds and says so.
 */
import { PassThrough } from 'node:stream';
import { expect, it } from 'vitest';
import { useTestDatabase } from '@/db/test-support/use-test-database';
import { createLogger } from '@/lib/observability/logger';
import { startHeartbeat } from './heartbeat';

const t = useTestDatabase();

it('a failed beat logs at most a few hundred characters, once, and none of the payload; recovery is logged', async () => {
  const out = new PassThrough();
  const lines: string[] = [];
  out.on('data', (b: Buffer) => lines.push(...b.toString('utf8').split('\n').filter(Boolean)));
  const log = createLogger('worker', { level: 'info', destination: out });
  const marker = 'payload-marker-';
  const metrics = async () => Array.from({ length: 400 }, (_, i) => ({ name: `${marker}${i}`, help: 'x'.repeat(100), values: [{ value: i }] }));
  expect(JSON.stringify(await metrics()).length).toBeGreaterThan(40_000);
  const hb = startHeartbeat(
    t.db,
    { workerId: 'host:1', pid: 1, host: 'host', region: 'local', role: 'probe', version: 'test', startedAt: new Date() },
    { intervalMs: 3_600_000, metrics, log },
  );

  await t.sql`alter table worker_heartbeats rename to worker_heartbeats_away`;
  expect(await hb.beat()).toBe(false);
  expect(await hb.beat()).toBe(false); // a second failure in a row is not logged again
  await t.sql`alter table worker_heartbeats_away rename to worker_heartbeats`;
  expect(await hb.beat()).toBe(true);
  await new Promise<void>((resolve) => setImmediate(resolve)); // pino writes synchronously to the stream; let 'data' fire

  const warned = lines.filter((l) => l.includes('heartbeat failed'));
  expect(warned).toHaveLength(1);
  expect(warned[0]!.length).toBeLessThan(1000);
  expect(warned[0]).not.toContain(marker);
  expect(lines.some((l) => l.includes('heartbeat restored'))).toBe(true);
  await hb.stop();
});
