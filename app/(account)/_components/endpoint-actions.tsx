'use client';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { callApi } from './api-client';
import { FormError } from './form-error';

/** Pause / resume / delete buttons of an owner's endpoint. */
export function EndpointActions({ id, status }: { id: number; status: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  async function run(method: string, body?: unknown) {
    setError(null);
    const r = await callApi(method, `/api/v1/endpoints/${id}`, body);
    if (!r.ok) return setError(r.error.message);
    if (method === 'DELETE') router.push('/dashboard');
    router.refresh();
  }
  return (
    <div className="actions">
      {status === 'active' ? (
        <button type="button" onClick={() => run('PATCH', { status: 'paused' })}>
          Pause probing
        </button>
      ) : null}
      {status === 'paused' ? (
        <button type="button" onClick={() => run('PATCH', { status: 'active' })}>
          Resume probing
        </button>
      ) : null}
      <button
        type="button"
        onClick={() => {
          if (window.confirm('Delete this endpoint? Its measurements stay as evidence.')) void run('DELETE');
        }}
      >
        Delete endpoint
      </button>
      <FormError error={error} />
    </div>
  );
}

/** Signs out (POST /api/auth/sign-out) and goes home. */
export function SignOutButton() {
  return (
    <button
      type="button"
      onClick={async () => {
        await callApi('POST', '/api/auth/sign-out', {});
        window.location.assign('/');
      }}
    >
      Sign out
    </button>
  );
}
