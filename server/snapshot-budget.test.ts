/**
 * The snapshot budget (decision 163) is the deployment's: TOKENPACE_SNAPSHOT_BUDGET_PER_HOUR points
 * an hour per process, read when the budget is first used; a value outside 1…10,000,000 is refused
 * by the environment schema with the variable's name.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { getEnv } from '@/lib/env';
import { refundSnapshotWrite, reserveSnapshotWrite, resetSnapshotBudget, SnapshotBudgetError } from './snapshot-budget';

const NAME = 'TOKENPACE_SNAPSHOT_BUDGET_PER_HOUR';
const before = process.env[NAME];

afterEach(() => {
  if (before === undefined) delete process.env[NAME];
  else process.env[NAME] = before;
  getEnv(true);
  resetSnapshotBudget();
});

/** Reserves until refused; the number of points granted (stops at `most`). */
async function pointsGranted(most: number): Promise<number> {
  for (let i = 0; i < most; i++) {
    try {
      await reserveSnapshotWrite();
    } catch (err) {
      expect(err).toBeInstanceOf(SnapshotBudgetError);
      expect((err as SnapshotBudgetError).retryAfterSeconds).toBeGreaterThan(0);
      return i;
    }
  }
  return most;
}

describe('snapshot budget from the environment', () => {
  it('grants exactly the configured points an hour, and a refunded point can be taken again', async () => {
    process.env[NAME] = '3';
    getEnv(true);
    resetSnapshotBudget();
    expect(await pointsGranted(2)).toBe(2);
    await refundSnapshotWrite();
    // 1 point taken of 3: two more, then refused
    expect(await pointsGranted(10)).toBe(2);
  });

  it('defaults to 600 an hour', async () => {
    delete process.env[NAME];
    getEnv(true);
    resetSnapshotBudget();
    expect(await pointsGranted(700)).toBe(600);
  });

  it.each(['0', '-1', '1.5', '10000001', 'many'])('%s is refused naming the variable', (value) => {
    process.env[NAME] = value;
    expect(() => getEnv(true)).toThrow(NAME);
  });

  it('the edges 1 and 10,000,000 are accepted', () => {
    for (const value of ['1', '10000000']) {
      process.env[NAME] = value;
      expect(getEnv(true)[NAME]).toBe(Number(value));
    }
  });
});
