import { describe, expect, it } from 'vitest';
import { mulberry32, normalFrom } from './random';

describe('mulberry32', () => {
  it('is deterministic per seed and uniform-ish in [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 10000 }, () => a());
    expect(xs.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b()));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    const m = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(m).toBeGreaterThan(0.48);
    expect(m).toBeLessThan(0.52);
    expect(mulberry32(43)()).not.toBe(mulberry32(42)());
  });
  it('rejects non-integer seeds', () => {
    expect(() => mulberry32(1.5)).toThrow(TypeError);
  });
  it('normalFrom gives mean ≈ 0 and sd ≈ 1', () => {
    const g = normalFrom(mulberry32(7));
    const xs = Array.from({ length: 20000 }, g);
    const m = xs.reduce((s, x) => s + x, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1));
    expect(Math.abs(m)).toBeLessThan(0.03);
    expect(Math.abs(sd - 1)).toBeLessThan(0.03);
  });
});
