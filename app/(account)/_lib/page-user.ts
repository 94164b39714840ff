/**
 * Who is looking at an account page. Private pages call `requirePageUser` (anonymous → redirect to
 * /signin?next=…) or `requirePageAdmin` (not an admin → 404, so the page's existence is not
 * advertised). Pages never read the API key envelope, only `hasApiKey`.
 */
import { headers } from 'next/headers';
import { notFound, redirect } from 'next/navigation';
import { getUserFromHeaders } from '@/app/api/_lib/auth';
import type { AccountUser } from '@/db/queries/accounts';

/** The signed-in user of this page request (session cookie), or null. */
export async function getPageUser(): Promise<AccountUser | null> {
  const h = new Headers(await headers());
  h.delete('authorization'); // pages use the browser session only
  try {
    return await getUserFromHeaders(h);
  } catch {
    return null;
  }
}

/** The signed-in user, or a redirect to the sign-in page that comes back to `nextPath`. */
export async function requirePageUser(nextPath: string): Promise<AccountUser> {
  const user = await getPageUser();
  if (!user) redirect(`/signin?next=${encodeURIComponent(nextPath)}`);
  return user;
}

/** The signed-in admin; anonymous → sign-in redirect, others → 404. */
export async function requirePageAdmin(nextPath: string): Promise<AccountUser> {
  const user = await requirePageUser(nextPath);
  if (user.role !== 'admin') notFound();
  return user;
}
