/**
 * Writes the synthetic demo data into a database (for local UI work and e2e debugging only):
 *   npx tsx e2e/support/seed-cli.ts postgres://postgres:tokenpace@127.0.0.1:3211/tokenpace [--remove]
 */
import { openDb } from '@/db/client';
import { removeSyntheticData, seedSyntheticData } from './synthetic-data';

async function main() {
  const url = process.argv[2];
  if (!url) throw new Error('usage: seed-cli.ts <postgres url> [--remove]');
  const { db, close } = openDb(url, 2);
  try {
    if (process.argv.includes('--remove')) {
      await removeSyntheticData(db);
      console.log('removed synthetic data');
    } else {
      const r = await seedSyntheticData(db, { now: new Date() });
      console.log(`wrote ${r.measurements} synthetic measurements for ${Object.keys(r.endpointIds).length} endpoints`);
    }
  } finally {
    await close();
  }
}
void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
