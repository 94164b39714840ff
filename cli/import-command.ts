import { openDb } from '@/db/client';
import { importClaimsFile } from '@/db/import/claims';
import { importLlmperfDir } from '@/db/import/llmperf';
import { acquireDatabase } from './database';
import { UsageError } from './usage-error';

/** `tokenpace import llmperf <dir>` | `tokenpace import claims <file>`. Returns the exit code. */
export async function runImportCommand(argv: string[]): Promise<number> {
  const [kind, target] = argv;
  if (kind !== 'llmperf' && kind !== 'claims') throw new UsageError('import needs "llmperf <dir>" or "claims <file>"');
  if (!target) throw new UsageError(`import ${kind} needs a ${kind === 'llmperf' ? 'directory' : 'file'} argument`);
  const database = await acquireDatabase();
  const { db, close } = openDb(database.url, 2);
  try {
    if (kind === 'llmperf') {
      const r = await importLlmperfDir(db, target);
      console.log(`imported LLMPerf dataset: ${r.series} series, ${r.rows} requests`);
    } else {
      const r = await importClaimsFile(db, target);
      console.log(`imported ${r.claims} claims`);
    }
    return 0;
  } finally {
    await close();
    await database.release();
  }
}
