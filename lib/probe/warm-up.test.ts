import { describe, expect, it } from 'vitest';
import { warmUpProbeCore } from './warm-up';

describe('warmUpProbeCore', () => {
  // How long it takes is part of a probe process’s start-up (the cold rows of `npm run bench:probe`), not a
  // unit test: a busy machine makes any wall-clock limit here a test of the machine.
  it('runs every protocol path without network and resolves', async () => {
    await expect(warmUpProbeCore(5)).resolves.toBeUndefined();
  });
});
