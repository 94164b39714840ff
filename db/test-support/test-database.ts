/**
 * Per-test-file database: a fresh clone of the migrated template (see global-setup.ts).
 * Call in beforeAll; `drop()` in afterAll. Returns the URL and an open drizzle handle.
 */
import postgres from 'postgres';
import { inject } from 'vitest';
import { openDb, type DbHandle } from '../client';

export interface TestDatabase extends DbHandle {
  url: string;
  name: string;
  drop: () => Promise<void>;
}

let counter = 0;

export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('tokenpaceAdminUrl');
  const template = inject('tokenpaceTemplate');
  const ppid = template.split('_')[2];
  const name = `tp_t_${ppid}_${process.pid}_${counter++}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}" template "${template}"`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const handle = openDb(url, 5);
  return {
    ...handle,
    url,
    name,
    drop: async () => {
      await handle.close();
      const a = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists "${name}" with (force)`);
      await a.end();
    },
  };
}
