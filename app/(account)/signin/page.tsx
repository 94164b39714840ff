import type { Metadata } from 'next';
import { SignInForm } from '../_components/auth-forms';

export const metadata: Metadata = { title: 'Sign in' };

type Search = Promise<Record<string, string | string[] | undefined>>;

/** /signin – email + password sign-in; `next` is where to go afterwards (same-site paths only). */
export default async function SignInPage({ searchParams }: { searchParams: Search }) {
  const next = (await searchParams).next;
  return (
    <>
      <h1>Sign in</h1>
      <SignInForm next={typeof next === 'string' ? next : undefined} />
    </>
  );
}
