import type { Metadata } from 'next';
import { SignUpForm } from '../_components/auth-forms';

export const metadata: Metadata = { title: 'Sign up' };

type Search = Promise<Record<string, string | string[] | undefined>>;

/** /signup – create a provider account (email + password) to submit endpoints. */
export default async function SignUpPage({ searchParams }: { searchParams: Search }) {
  const next = (await searchParams).next;
  return (
    <>
      <h1>Create a provider account</h1>
      <p className="lead">Providers submit endpoints for measurement; every submission is verified with a test probe and reviewed before it is scheduled.</p>
      <SignUpForm next={typeof next === 'string' ? next : undefined} />
    </>
  );
}
