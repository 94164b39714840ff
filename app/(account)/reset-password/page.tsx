import type { Metadata } from 'next';
import { ResetPasswordForm } from '../_components/auth-forms';

export const metadata: Metadata = { title: 'New password' };

type Search = Promise<Record<string, string | string[] | undefined>>;

/** /reset-password?token=… – set a new password from a reset link. */
export default async function ResetPasswordPage({ searchParams }: { searchParams: Search }) {
  const { token, error } = await searchParams;
  if (typeof token !== 'string' || error)
    return (
      <>
        <h1>Reset link not valid</h1>
        <p>The link has expired or was already used. Request a new one.</p>
      </>
    );
  return (
    <>
      <h1>Choose a new password</h1>
      <ResetPasswordForm token={token} />
    </>
  );
}
