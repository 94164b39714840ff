import { defineConfig } from 'drizzle-kit';

// Migrations are generated from db/schema.ts and committed; the app applies them at start.
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema.ts',
  out: './db/migrations',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:15432/tokenpace' },
});
