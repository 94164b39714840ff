import { describe, expect, it } from 'vitest';
import { wilsonInterval } from './wilson';

describe('wilsonInterval', () => {
  it('5 of 10 at 95 %: [0.2366, 0.7634]', () => {
    const w = wilsonInterval(5, 10);
    expect(w.rate).toBe(0.5);
    expect(w.low).toBeCloseTo(0.236593, 5);
    expect(w.high).toBeCloseTo(0.763407, 5);
  });
  it('0 of 10: low 0, high z²/(n + z²) = 0.27754', () => {
    const w = wilsonInterval(0, 10);
    expect(w).toMatchObject({ rate: 0, low: 0 });
    expect(w.high).toBeCloseTo(3.8416 / 13.8416, 10);
  });
  it('10 of 10 mirrors 0 of 10', () => {
    const w = wilsonInterval(10, 10);
    expect(w).toMatchObject({ rate: 1, high: 1 });
    expect(w.low).toBeCloseTo(1 - 3.8416 / 13.8416, 10);
  });
  it('95 of 100 (Wilson 1927 formula by hand)', () => {
    // centre = (0.95 + 0.019208) / 1.038416 = 0.933333; half = 1.96/1.038416 · √(0.000475 + 0.00009604) = 0.045103
    const w = wilsonInterval(95, 100);
    expect(w.low).toBeCloseTo(0.88829, 4);
    expect(w.high).toBeCloseTo(0.97847, 4);
  });
  it('custom z narrows/widens', () => {
    const w = wilsonInterval(50, 100, 1);
    expect(w.high - w.low).toBeLessThan(wilsonInterval(50, 100).high - wilsonInterval(50, 100).low);
  });
  it('validates input', () => {
    expect(() => wilsonInterval(0, 0)).toThrow(RangeError);
    expect(() => wilsonInterval(11, 10)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 10)).toThrow(RangeError);
    expect(() => wilsonInterval(1.5, 10)).toThrow(RangeError);
    expect(() => wilsonInterval(1, 10, 0)).toThrow(RangeError);
  });
});
