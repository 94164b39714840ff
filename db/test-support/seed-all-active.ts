/**
 * Seeds the catalogue for a figures test with every endpoint active (every API key reads as set:
 * lookupEnv → 'x'), the calibration endpoint at 127.0.0.1:3999 (nothing listens: no probe runs),
 * and only the given 1k-token workloads of `category` (1,000 input tokens, 256 output tokens,
 * concurrency 1, scheduled), e.g. `{ 'prose-1k': 'prose', 'code-1k': 'code' }`.
 */
import type { Db } from '../client';
import { seedCatalog } from '../seed';
import type { WorkloadCategory } from '@/lib/probe/workloads';

export async function seedAllActive(db: Db, workloads: Record<string, WorkloadCategory>): Promise<void> {
  await seedCatalog(db, {
    workloads: Object.entries(workloads).map(([slug, category]) => ({
      slug,
      category,
      inputTokensTarget: 1000,
      maxOutputTokens: 256,
      concurrency: 1,
      scheduled: true,
    })),
    lookupEnv: () => 'x',
    referencePort: 3999,
  });
}
