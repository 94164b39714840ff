/**
 * Seeded pseudo-random numbers: workload prompt variation (lib/probe/workloads), simulated test
 * data. Not for cryptography.
 */

/**
 * mulberry32 (Tommy Ettinger, 2017; public domain): a 32-bit-state generator, fast and of good
 * statistical quality for resampling. Same seed → same sequence on every platform.
 * @param seed any integer; only its low 32 bits are used
 * @returns a function yielding uniform floats in [0, 1) with 2^-32 resolution
 * @throws TypeError if seed is not a safe integer
 */
export function mulberry32(seed: number): () => number {
  if (!Number.isSafeInteger(seed)) throw new TypeError(`seed must be an integer, got ${String(seed)}`);
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Standard normal variates from a uniform source by the Box–Muller transform (Box & Muller 1958).
 * @param uniform a [0, 1) generator such as {@link mulberry32}
 * @returns a function yielding N(0, 1) samples
 */
export function normalFrom(uniform: () => number): () => number {
  return () => {
    const u = 1 - uniform(); // (0, 1], avoids log(0)
    const v = uniform();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
}
