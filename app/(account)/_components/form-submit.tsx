import type { ReactNode } from 'react';
import { FormError } from './form-error';

/**
 * The end of a form: its form-wide error (FormError) above the submit button, which is disabled
 * and says `busyLabel` (e.g. "Signing in…") while the form is submitting.
 */
export function FormSubmit({ error, busy, busyLabel, children }: { error: string | null | undefined; busy: boolean; busyLabel: string; children: ReactNode }) {
  return (
    <>
      <FormError error={error} />
      <button type="submit" disabled={busy}>
        {busy ? busyLabel : children}
      </button>
    </>
  );
}
