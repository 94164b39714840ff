'use client';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { callApi } from './api-client';
import { resolveSameOriginPath } from '@/lib/security/safe-redirect';
import { Field } from './field';
import { FormSubmit } from './form-submit';

const PASSWORD_MIN = 10;

/** Only pages of this site are followed after sign-in/up (resolved against our origin; no open redirect). */
function safeNext(next: string | undefined): string {
  return resolveSameOriginPath(next, window.location.origin);
}

/** Sign-up form: name, email, password → POST /api/auth/sign-up/email, then the dashboard. */
export function SignUpForm({ next }: { next?: string }) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const name = String(f.get('name') ?? '').trim();
    const email = String(f.get('email') ?? '').trim();
    const password = String(f.get('password') ?? '');
    const errs: Record<string, string> = {};
    if (name.length < 2) errs.name = 'at least 2 characters';
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) errs.email = 'an email address';
    if (password.length < PASSWORD_MIN) errs.password = `at least ${PASSWORD_MIN} characters`;
    setErrors(errs);
    setFormError(null);
    if (Object.keys(errs).length > 0) return;
    setBusy(true);
    const r = await callApi('POST', '/api/auth/sign-up/email', { name, email, password });
    if (!r.ok) {
      setBusy(false);
      setFormError(r.error.message);
      return;
    }
    // Sign-up answers alike for new and existing emails (no account enumeration) and does not
    // sign in; signing in with the same credentials does.
    const s = await callApi('POST', '/api/auth/sign-in/email', { email, password });
    setBusy(false);
    if (!s.ok) {
      setFormError(
        s.error.status === 401
          ? 'Could not sign you in with these details. If you already have an account, sign in with its password or reset it.'
          : s.error.message,
      );
      return;
    }
    // A full navigation: the client router may hold a prefetch of the page made while signed out.
    window.location.assign(safeNext(next));
  }
  return (
    <form onSubmit={onSubmit} noValidate className="account-form" aria-label="Sign up">
      <Field id="name" label="Name (you or your team)" error={errors.name}>
        {(a) => <input {...a} name="name" autoComplete="name" />}
      </Field>
      <Field id="email" label="Email" error={errors.email}>
        {(a) => <input {...a} name="email" type="email" autoComplete="email" />}
      </Field>
      <Field id="password" label="Password" error={errors.password} hint={`At least ${PASSWORD_MIN} characters.`}>
        {(a) => <input {...a} name="password" type="password" autoComplete="new-password" />}
      </Field>
      <FormSubmit error={formError} busy={busy} busyLabel="Creating account…">
        Create account
      </FormSubmit>
      <p className="small">
        Already have an account? <Link href={next ? `/signin?next=${encodeURIComponent(next)}` : '/signin'}>Sign in</Link>
      </p>
    </form>
  );
}

/** Sign-in form → POST /api/auth/sign-in/email, then `next` (a same-site path) or the dashboard. */
export function SignInForm({ next }: { next?: string }) {
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    setBusy(true);
    setFormError(null);
    const r = await callApi('POST', '/api/auth/sign-in/email', { email: String(f.get('email') ?? '').trim(), password: String(f.get('password') ?? '') });
    setBusy(false);
    if (!r.ok) {
      setFormError(r.error.status === 401 ? 'Wrong email or password.' : r.error.message);
      return;
    }
    // A full navigation: the client router may hold a prefetch of the page made while signed out.
    window.location.assign(safeNext(next));
  }
  return (
    <form onSubmit={onSubmit} className="account-form" aria-label="Sign in">
      <Field id="email" label="Email">
        {(a) => <input {...a} name="email" type="email" autoComplete="email" required />}
      </Field>
      <Field id="password" label="Password">
        {(a) => <input {...a} name="password" type="password" autoComplete="current-password" required />}
      </Field>
      <FormSubmit error={formError} busy={busy} busyLabel="Signing in…">
        Sign in
      </FormSubmit>
      <p className="small">
        No account? <Link href={next ? `/signup?next=${encodeURIComponent(next)}` : '/signup'}>Sign up</Link> ·{' '}
        <Link href="/forgot-password">Forgot your password?</Link>
      </p>
    </form>
  );
}

/** Asks for a password-reset link (written to the server log; the operator passes it on). */
export function ForgotPasswordForm() {
  const [done, setDone] = useState<string | null>(null);
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const email = String(new FormData(e.currentTarget).get('email') ?? '').trim();
    const r = await callApi('POST', '/api/auth/request-password-reset', { email, redirectTo: '/reset-password' });
    setDone(
      r.ok
        ? 'If an account has this email, a reset link has been issued. This installation has no mail service: ask its operator for the link from the server log.'
        : r.error.message,
    );
  }
  return (
    <form onSubmit={onSubmit} className="account-form" aria-label="Reset password">
      <Field id="email" label="Email">
        {(a) => <input {...a} name="email" type="email" required />}
      </Field>
      <button type="submit">Request a reset link</button>
      {done ? <p role="status">{done}</p> : null}
    </form>
  );
}

/** Sets a new password with the token from the reset link. */
export function ResetPasswordForm({ token }: { token: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const newPassword = String(new FormData(e.currentTarget).get('password') ?? '');
    if (newPassword.length < PASSWORD_MIN) return setError(`at least ${PASSWORD_MIN} characters`);
    const r = await callApi('POST', '/api/auth/reset-password', { newPassword, token });
    if (!r.ok) return setError(r.error.message);
    router.push('/signin');
  }
  return (
    <form onSubmit={onSubmit} className="account-form" aria-label="New password">
      <Field id="password" label="New password" error={error ?? undefined}>
        {(a) => <input {...a} name="password" type="password" autoComplete="new-password" />}
      </Field>
      <button type="submit">Set password</button>
    </form>
  );
}
