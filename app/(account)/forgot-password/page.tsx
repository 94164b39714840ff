import type { Metadata } from 'next';
import { ForgotPasswordForm } from '../_components/auth-forms';

export const metadata: Metadata = { title: 'Reset password' };

/** /forgot-password – request a reset link (written to the server log: no mail service). */
export default function ForgotPasswordPage() {
  return (
    <>
      <h1>Reset your password</h1>
      <ForgotPasswordForm />
    </>
  );
}
