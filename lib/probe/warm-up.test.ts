import { describe, expect, it } from 'vitest';
import { warmUpProbeCore } from './warm-up';

describe('warmUpProbeCore', () => {
  it('runs every protocol path without network in well under a second', async () => {
    const t0 = performance.now();
    await expect(warmUpProbeCore(5)).resolves.toBeUndefined();
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});
