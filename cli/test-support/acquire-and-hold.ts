/**
 * Test helper process: a CLI command that takes long. It acquires the database as every CLI command
 * does (cli/database.ts, TOKENPACE_DATA_DIR from the environment), opens a session and prints
 * `ACQUIRED <owned> <postmasterPid>`; then on stdin `query` runs a query (prints `QUERIED` or
 * `FAILED <message>`) and `release` ends its session and releases (prints `RELEASED`, exits 0).
 */
import postgres from 'postgres';
import { acquireDatabase } from '../database';

async function main(): Promise<void> {
  const d = await acquireDatabase();
  const sql = postgres(d.url, { max: 1, onnotice: () => {} });
  await sql`select 1`;
  console.log(`ACQUIRED ${d.embedded?.owned} ${d.embedded?.pid}`);
  let buffered = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    buffered += chunk;
    let i: number;
    while ((i = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, i).trim();
      buffered = buffered.slice(i + 1);
      if (line === 'query') {
        sql`select 1`.then(
          () => console.log('QUERIED'),
          (err: Error) => console.log(`FAILED ${err.message}`),
        );
      } else if (line === 'release') {
        void (async () => {
          await sql.end({ timeout: 5 });
          await d.release();
          console.log('RELEASED');
          process.exit(0);
        })();
      }
    }
  });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
