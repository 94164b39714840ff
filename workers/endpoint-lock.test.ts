import { describe, expect, it } from 'vitest';
import { createKeyedLock } from './endpoint-lock';

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

describe('createKeyedLock', () => {
  it('runs tasks of one key one after the other, in arrival order', async () => {
    const lock = createKeyedLock();
    const log: string[] = [];
    const a = controlled(log, 'a');
    const b = controlled(log, 'b');
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
    const lock = createKeyedLock();
    const log: string[] = [];
    const a = controlled(log, 'a');
    const b = controlled(log, 'b');
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
    const lock = createKeyedLock();
    const log: string[] = [];
    const a = controlled(log, 'a');
    const b = controlled(log, 'b');
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
