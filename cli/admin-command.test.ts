import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { auditEvents, users } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { getEnv } from '@/lib/env';
import { runAdminCommand } from './admin-command';
import { UsageError } from './usage-error';

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  getEnv(true);
  await t.db.insert(users).values({ id: 'u1', name: 'Ada', email: 'Ada@Example.org' });
});
afterAll(async () => {
  await t?.drop();
});

it('grants and revokes the admin role by email (case-insensitive), logging each change', async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  expect(await runAdminCommand(['grant', 'ada@example.org'])).toBe(0);
  expect(log).toHaveBeenCalledWith('Ada@Example.org is now an admin');
  expect((await t.db.select({ role: users.role }).from(users).where(eq(users.id, 'u1')))[0]!.role).toBe('admin');
  expect(await runAdminCommand(['revoke', 'ADA@example.org'])).toBe(0);
  expect((await t.db.select({ role: users.role }).from(users).where(eq(users.id, 'u1')))[0]!.role).toBe('provider');
  const events = await t.db
    .select({ action: auditEvents.action, actor: auditEvents.actorUserId, target: auditEvents.targetUserId })
    .from(auditEvents)
    .orderBy(auditEvents.id);
  expect(events).toEqual([
    { action: 'admin.grant', actor: null, target: 'u1' },
    { action: 'admin.revoke', actor: null, target: 'u1' },
  ]);
  log.mockRestore();
});

it('exits 1 for an unknown account and refuses bad usage', async () => {
  const err = vi.spyOn(console, 'error').mockImplementation(() => {});
  expect(await runAdminCommand(['grant', 'nobody@example.org'])).toBe(1);
  expect(err).toHaveBeenCalledWith('tokenpace: no account with email nobody@example.org (sign up first)');
  err.mockRestore();
  await expect(runAdminCommand(['grant'])).rejects.toThrow(UsageError);
  await expect(runAdminCommand(['promote', 'a@b.c'])).rejects.toThrow(UsageError);
  await expect(runAdminCommand(['grant', 'not-an-email'])).rejects.toThrow(UsageError);
});
