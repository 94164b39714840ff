import { acquireDatabase } from './database';

/** `tokenpace migrate`: applies pending migrations and exits. */
export async function runMigrateCommand(_argv: string[]): Promise<number> {
  const db = await acquireDatabase();
  await db.release();
  console.log('migrations applied');
  return 0;
}
