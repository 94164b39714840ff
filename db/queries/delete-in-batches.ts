import type { SQL } from 'drizzle-orm';
import type { Db } from '../client';

/**
 * Runs a batched delete until it is done: `statement(limit)` is one `delete … where key in
 * (select … limit <limit>) returning 1`, repeated while a batch deletes `batchSize` rows, so no
 * statement holds its locks for long. Returns the number of rows deleted.
 */
export async function deleteInBatches(db: Db, batchSize: number, statement: (limit: number) => SQL): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = (await db.execute(statement(batchSize))) as unknown as unknown[];
    total += rows.length;
    if (rows.length < batchSize) return total;
  }
}
