/**
 * `tokenpace admin grant <email>` / `tokenpace admin revoke <email>`: gives or takes the admin role
 * of an existing account (the operator on the machine is trusted; the change is logged in the
 * audit table with no actor). Works on DATABASE_URL, else the embedded server under the data dir.
 * Exit codes: 0 done, 1 no such account, 2 bad usage.
 */
import { openDb } from '@/db/client';
import { setUserRoleByEmail } from '@/db/queries/accounts';
import { acquireDatabase } from './database';
import { UsageError } from './usage-error';

/** Runs `admin <grant|revoke> <email>`; returns the exit code. */
export async function runAdminCommand(argv: string[]): Promise<number> {
  const [action, email, ...extra] = argv;
  if ((action !== 'grant' && action !== 'revoke') || !email || extra.length > 0) {
    throw new UsageError('admin: expected "admin grant <email>" or "admin revoke <email>"');
  }
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new UsageError(`admin: "${email}" is not an email address`);
  const database = await acquireDatabase();
  const { db, close } = openDb(database.url, 2);
  try {
    const user = await setUserRoleByEmail(db, email, action === 'grant' ? 'admin' : 'provider', null);
    if (!user) {
      console.error(`tokenpace: no account with email ${email} (sign up first)`);
      return 1;
    }
    console.log(`${user.email} is now ${user.role === 'admin' ? 'an admin' : 'a provider (admin role removed)'}`);
    return 0;
  } finally {
    await close();
    await database.release();
  }
}
