import { describe, expect, it } from 'vitest';
import { drainLateness, newDrainState, SHORT_READ_BODY_BYTES, type CheckpointRun } from './drain-bound';

// Recorded shapes of reads on one socket: each read is a run (serial, floor F = the last
// checkpoint before it), stamped at nowMs with its body bytes; the sleep bound comes from
// ./stamp-lateness.ts and is given here as a number.
const run = (serial: number, floorMs: number): CheckpointRun => ({ serial, floorMs });

describe('drain bound (decision 183)', () => {
  it('bounds a read by the time since the checkpoint before the previous short read', () => {
    const s = newDrainState();
    // read 1 at 100 ms (floor 98), read 2 at 103 ms: its bytes arrived after read 1's recv (> 98 ms)
    expect(drainLateness(s, run(1, 98), 100, 40, 50).latenessMs).toBe(50);
    expect(drainLateness(s, run(2, 101), 103, 40, 50).latenessMs).toBe(5);
  });

  it('keeps the sleep bound when it is the smaller one', () => {
    const s = newDrainState();
    drainLateness(s, run(1, 90), 100, 40, 0.3);
    expect(drainLateness(s, run(2, 101), 130, 40, 0.4).latenessMs).toBe(0.4);
  });

  it('stamps of one read share that read: the floor is the read before, not the earlier stamp', () => {
    const s = newDrainState();
    drainLateness(s, run(1, 98), 100, 10, 50);
    // two chunked-encoding bodies in read 2 (same run): both bounded from read 1's floor
    expect(drainLateness(s, run(2, 101), 103, 10, 50)).toEqual({ latenessMs: 5, newRead: true });
    const second = drainLateness(s, run(2, 101), 103.25, 10, 50);
    expect(second.newRead).toBe(false);
    expect(second.latenessMs).toBe(5.25);
  });

  it('uses a read as a floor only while it is provably short (edge at SHORT_READ_BODY_BYTES)', () => {
    const at = (bytes: number) => {
      const s = newDrainState();
      drainLateness(s, run(1, 98), 100, bytes, 50);
      return drainLateness(s, run(2, 101), 103, 10, 50).latenessMs;
    };
    expect(at(SHORT_READ_BODY_BYTES)).toBe(5);
    expect(at(SHORT_READ_BODY_BYTES + 1)).toBe(50);
  });

  it('counts the bytes of every stamp of a read toward its size', () => {
    const s = newDrainState();
    drainLateness(s, run(1, 98), 100, SHORT_READ_BODY_BYTES, 50);
    drainLateness(s, run(1, 98), 100.1, 1, 50);
    expect(drainLateness(s, run(2, 101), 103, 10, 50).latenessMs).toBe(50);
  });

  it('the first read has no floor: the sleep bound alone', () => {
    const s = newDrainState();
    expect(drainLateness(s, run(7, 0), 100, 10, 12).latenessMs).toBe(12);
  });

  it('unknown stays unknown: an infinite sleep bound is never narrowed', () => {
    const s = newDrainState();
    drainLateness(s, run(1, 98), 100, 10, Infinity);
    expect(drainLateness(s, run(2, 101), 103, 10, Infinity).latenessMs).toBe(Infinity);
  });

  it('after the parser paused every later stamp is unknown, even with a small sleep bound', () => {
    const s = newDrainState();
    drainLateness(s, run(1, 98), 100, 10, 0.2);
    s.broken = true;
    expect(drainLateness(s, run(2, 101), 103, 10, 0.2).latenessMs).toBe(Infinity);
  });

  it('without a visible parser the drain bound is not used', () => {
    const s = newDrainState();
    s.noDrain = true;
    drainLateness(s, run(1, 98), 100, 10, 50);
    expect(drainLateness(s, run(2, 101), 103, 10, 50).latenessMs).toBe(50);
  });
});
