import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import {
  createEndpointLock,
  createKeyedLock,
  ENDPOINT_LOCK_NAMESPACE,
  EndpointLockTimeoutError,
  EndpointSweepingError,
  SWEEP_LOCK_NAMESPACE,
  type EndpointLock,
} from './endpoint-lock';

/** A task whose end the test controls, recording when it started and ended (event order, no clock). */
function controlled(log: string[], name: string) {
  let finish!: () => void;
  let fail!: (e: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return {
    task: async () => {
      log.push(`start ${name}`);
      try {
        await done;
      } finally {
        log.push(`end ${name}`);
      }
      return name;
    },
    finish: () => finish(),
    fail: (e: Error) => fail(e),
  };
}

const tick = () => new Promise((r) => setImmediate(r));

/** A fresh keyed lock, one event log, and two controlled tasks a and b writing to it. */
function keyedLockWithTwoTasks() {
  const log: string[] = [];
  return { lock: createKeyedLock(), log, a: controlled(log, 'a'), b: controlled(log, 'b') };
}

describe('createKeyedLock', () => {
  it('runs tasks of one key one after the other, in arrival order', async () => {
    const { lock, log, a, b } = keyedLockWithTwoTasks();
    const pa = lock.run(7, a.task);
    const pb = lock.run(7, b.task);
    await tick();
    expect(log).toEqual(['start a']);
    a.finish();
    await expect(pa).resolves.toBe('a');
    await tick();
    expect(log).toEqual(['start a', 'end a', 'start b']);
    b.finish();
    await expect(pb).resolves.toBe('b');
    await tick();
    expect(lock.activeKeys).toBe(0);
  });

  it('lets different keys run at the same time', async () => {
    const { lock, log, a, b } = keyedLockWithTwoTasks();
    const pa = lock.run(1, a.task);
    const pb = lock.run(2, b.task);
    await tick();
    expect(log).toEqual(['start a', 'start b']);
    expect(lock.activeKeys).toBe(2);
    a.finish();
    b.finish();
    await Promise.all([pa, pb]);
  });

  it('a failed task passes its error to its caller and does not block the next one', async () => {
    const { lock, log, a, b } = keyedLockWithTwoTasks();
    const pa = lock.run('k', a.task);
    const pb = lock.run('k', b.task);
    a.fail(new Error('probe crashed'));
    await expect(pa).rejects.toThrow('probe crashed');
    await tick();
    expect(log).toEqual(['start a', 'end a', 'start b']);
    b.finish();
    await expect(pb).resolves.toBe('b');
  });
});

describe('createKeyedLock wait bounds', () => {
  it('a caller still waiting at waitUntil rejects without running its task; the next caller keeps its place', async () => {
    const { lock, log, a, b } = keyedLockWithTwoTasks();
    const c = controlled(log, 'c');
    const pa = lock.run(1, a.task);
    const pb = lock.run(1, b.task, { waitUntil: Date.now() + 50 });
    const pc = lock.run(1, c.task);
    await expect(pb).rejects.toBeInstanceOf(EndpointLockTimeoutError);
    await tick();
    // c must still wait for a (b gave up, it did not end a's turn).
    expect(log).toEqual(['start a']);
    a.finish();
    await pa;
    await tick();
    expect(log).toEqual(['start a', 'end a', 'start c']);
    c.finish();
    await expect(pc).resolves.toBe('c');
  });

  it('an abort while waiting rejects with the signal reason', async () => {
    const lock = createKeyedLock();
    const log: string[] = [];
    const a = controlled(log, 'a');
    const pa = lock.run(1, a.task);
    const ac = new AbortController();
    const pb = lock.run(1, async () => 'b', { signal: ac.signal });
    ac.abort(new Error('worker stopping'));
    await expect(pb).rejects.toThrow('worker stopping');
    a.finish();
    await pa;
  });
});

describe('createEndpointLock (real Postgres, two sessions as two processes would have)', () => {
  let t: TestDatabase;
  const locks: EndpointLock[] = [];
  const open = (waitMs = 10_000, onBusy?: (id: number) => void) => {
    const l = createEndpointLock({ url: t.url, waitMs, maxPollMs: 20, onBusy });
    locks.push(l);
    return l;
  };
  /** Two lock sessions (two processes), one event log, and a controlled task a writing to it. */
  const twoSessionsAndTask = () => {
    const log: string[] = [];
    return { one: open(), two: open(), log, a: controlled(log, 'a') };
  };
  /** Advisory locks of our namespace (or the sweep markers') held right now: "endpointId" per holder. */
  const held = async (namespace = ENDPOINT_LOCK_NAMESPACE) => {
    const rows =
      (await t.sql`select objid::int as id from pg_locks where locktype = 'advisory' and classid = ${namespace}::oid and objsubid = 2 and granted and database = (select oid from pg_database where datname = current_database())`) as unknown as Array<{
        id: number;
      }>;
    return rows.map((r) => r.id).sort();
  };

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(locks.map((l) => l.close()));
    await t?.drop();
  });

  it('holds a two-int advisory lock (namespace, endpoint id) for the task, one holder per endpoint across sessions', async () => {
    const { one, two, log, a } = twoSessionsAndTask();
    const b = controlled(log, 'b');
    const other = controlled(log, 'other');
    const pa = one.run(41, a.task);
    await expect.poll(held).toEqual([41]);
    const pb = two.run(41, b.task);
    const po = two.run(42, other.task);
    // A different endpoint runs at once; the same endpoint in the other session waits.
    await expect.poll(() => log.includes('start other')).toBe(true);
    await new Promise((r) => setTimeout(r, 150));
    expect(log).not.toContain('start b');
    a.finish();
    await pa;
    await expect.poll(() => log.includes('start b')).toBe(true);
    expect(log.indexOf('end a')).toBeLessThan(log.indexOf('start b'));
    b.finish();
    other.finish();
    await Promise.all([pb, po]);
    expect(await held()).toEqual([]);
  });

  it('releases the lock when the task throws', async () => {
    const one = open();
    const two = open();
    await expect(
      one.run(43, async () => {
        throw new Error('probe crashed');
      }),
    ).rejects.toThrow('probe crashed');
    expect(await held()).toEqual([]);
    await expect(two.run(43, async () => 'got it')).resolves.toBe('got it');
  });

  it('gives up after waitMs with EndpointLockTimeoutError, without running the task', async () => {
    const one = open();
    const busy: number[] = [];
    const two = open(300, (id) => busy.push(id));
    const log: string[] = [];
    const a = controlled(log, 'a');
    const pa = one.run(44, a.task);
    await expect.poll(held).toEqual([44]);
    let ran = false;
    const started = Date.now();
    const err = await two
      .run(44, async () => {
        ran = true;
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EndpointLockTimeoutError);
    expect((err as EndpointLockTimeoutError).waitedMs).toBeGreaterThanOrEqual(300);
    // gave up at its bound, not waiting for the holder (a busy machine's lateness aside)
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(ran).toBe(false);
    expect(busy).toEqual([44]);
    a.finish();
    await pa;
    expect(await held()).toEqual([]);
  });

  it('a closed session (a dead process) leaves no lock behind', async () => {
    const { one, two, a } = twoSessionsAndTask();
    void one.run(45, a.task).catch(() => undefined);
    await expect.poll(held).toEqual([45]);
    await one.close();
    await expect.poll(held).toEqual([]);
    await expect(two.run(45, async () => 'got it')).resolves.toBe('got it');
    a.finish();
  });

  it('a sweep (runSweep) raises its marker, waits for the probe already running, and probes waiting or arriving step aside in both sessions (decision 142)', async () => {
    const { one, two, log, a } = twoSessionsAndTask();
    const pa = one.run(51, a.task);
    await expect.poll(held).toEqual([51]);
    // Two probes waiting for endpoint 51: one in the same process (in-process chain), one in another session (polling).
    const queuedHere = one.run(51, async () => log.push('start queued-here')).catch((e: unknown) => e);
    const queuedThere = two.run(51, async () => log.push('start queued-there')).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    const sweep = controlled(log, 'sweep');
    const ps = one.runSweep(51, sweep.task, { waitMs: 5_000 });
    expect(await queuedHere).toBeInstanceOf(EndpointSweepingError);
    expect(await queuedThere).toBeInstanceOf(EndpointSweepingError);
    expect(await held(SWEEP_LOCK_NAMESPACE)).toEqual([51]);
    // New arrivals step aside at once, in both sessions; another endpoint is not concerned.
    await expect(one.run(51, async () => 'ran')).rejects.toBeInstanceOf(EndpointSweepingError);
    await expect(two.run(51, async () => 'ran')).rejects.toBeInstanceOf(EndpointSweepingError);
    await expect(two.run(52, async () => 'other endpoint')).resolves.toBe('other endpoint');
    // The sweep starts only once the running probe has ended.
    await new Promise((r) => setTimeout(r, 100));
    expect(log).toEqual(['start a']);
    expect(one.sweepingKeys).toBe(1);
    a.finish();
    await pa;
    await expect.poll(() => log.includes('start sweep')).toBe(true);
    expect(log).toEqual(['start a', 'end a', 'start sweep']);
    expect(await held()).toEqual([51]);
    sweep.finish();
    await expect(ps).resolves.toBe('sweep');
    expect(await held()).toEqual([]);
    expect(await held(SWEEP_LOCK_NAMESPACE)).toEqual([]);
    expect(one.sweepingKeys).toBe(0);
    await expect(two.run(51, async () => 'probed again')).resolves.toBe('probed again');
  });

  it('a sweep that does not get the endpoint within waitMs rejects (holder sweep) without running, and drops its marker', async () => {
    const { one, two, log, a } = twoSessionsAndTask();
    const pa = one.run(53, a.task);
    await expect.poll(held).toEqual([53]);
    const err = await two.runSweep(53, async () => log.push('sweep ran'), { waitMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EndpointLockTimeoutError);
    expect((err as EndpointLockTimeoutError).holder).toBe('sweep');
    expect((err as EndpointLockTimeoutError).waitedMs).toBeGreaterThanOrEqual(300);
    expect(log).toEqual(['start a']);
    expect(await held(SWEEP_LOCK_NAMESPACE)).toEqual([]);
    a.finish();
    await pa;
    await expect(two.run(53, async () => 'probed')).resolves.toBe('probed');
  });
});
