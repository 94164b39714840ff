/**
 * Vitest global setup: one Postgres for the whole run, and a migrated template database that each
 * test file clones (CREATE DATABASE … TEMPLATE), so tests own their data and never depend on order.
 * Uses TOKENPACE_TEST_DATABASE_URL (an admin URL to an existing server, e.g. the DATABASE_URL path
 * in CI) when set; otherwise starts an embedded PostgreSQL in a temporary directory.
 */
import fs from 'node:fs';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import type { EmbeddedServer } from '../embedded';
import { startTestPostgres } from './start-test-postgres';
import { migrateDatabase } from '../migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    tokenpaceAdminUrl: string;
    tokenpaceTemplate: string;
  }
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let embedded: EmbeddedServer | null = null;
  let dataDir: string | null = null;
  let adminUrl = process.env.TOKENPACE_TEST_DATABASE_URL;
  if (!adminUrl) {
    const started = await startTestPostgres({ prefix: 'tokenpace-test-pg-', portBase: 20000, portSpan: 4000 });
    embedded = started.server;
    dataDir = started.dataDir;
    adminUrl = embedded.url;
  }
  const template = `tp_tmpl_${process.pid}_${Date.now().toString(36)}`;
  try {
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${template}"`);
    await migrateDatabase(withDatabase(adminUrl, template));
    await admin.end();
  } catch (err) {
    // Say why and leave no server behind (vitest would otherwise print only a bare stack).
    if (embedded) await embedded.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`test database template could not be prepared: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  project.provide('tokenpaceAdminUrl', adminUrl);
  project.provide('tokenpaceTemplate', template);
  return async () => {
    const a = postgres(adminUrl!, { max: 1, onnotice: () => {} });
    const leftovers = await a<{ datname: string }[]>`select datname from pg_database where datname like ${`tp_t_${process.pid}_%`} or datname = ${template}`;
    for (const { datname } of leftovers) await a.unsafe(`drop database if exists "${datname}" with (force)`);
    await a.end();
    if (embedded) await embedded.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
