import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { settleHeap } from './settle-heap';

describe('settleHeap (decision 185)', () => {
  it('collects once when the process exposes gc, and does nothing (false) when it does not', () => {
    let calls = 0;
    expect(settleHeap(() => calls++)).toBe(true);
    expect(calls).toBe(1);
    expect(settleHeap(undefined)).toBe(false);
    expect(settleHeap('gc')).toBe(false);
    expect(calls).toBe(1);
  });

  it('in a real process started with --expose-gc, the garbage of start-up is gone after it', () => {
    // 50 MB of short-lived arrays, then settleHeap: heapUsed falls by most of it. Without the flag
    // settleHeap says false and collects nothing (the probe then simply starts unsettled).
    const script = `
      const { settleHeap } = require(${JSON.stringify(path.join(__dirname, 'settle-heap.ts'))});
      let keep = [];
      for (let i = 0; i < 50; i++) keep.push(new Array(131072).fill(i));
      keep = null;
      const before = process.memoryUsage().heapUsed;
      const settled = settleHeap();
      console.log(JSON.stringify({ settled, freedMb: (before - process.memoryUsage().heapUsed) / 1048576 }));`;
    const run = (flags: string[]) => {
      const r = spawnSync(process.execPath, [...flags, '--import', 'tsx', '-e', script], { encoding: 'utf8', timeout: 60_000 });
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { settled: boolean; freedMb: number };
    };
    const withGc = run(['--expose-gc']);
    expect(withGc.settled).toBe(true);
    expect(withGc.freedMb).toBeGreaterThan(30);
    expect(run([]).settled).toBe(false);
  });
});
