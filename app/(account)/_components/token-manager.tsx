'use client';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { callApi } from './api-client';
import { Field } from './field';

/** Creates a personal API token (shown once) and revokes existing ones. */
export function TokenManager({
  tokens,
}: {
  tokens: Array<{ id: number; name: string; prefix: string; createdAt: string; lastUsedAt: string | null; revokedAt: string | null }>;
}) {
  const router = useRouter();
  const [shown, setShown] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function create(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const name = String(new FormData(form).get('name') ?? '');
    const r = await callApi<{ token: string }>('POST', '/api/v1/tokens', { name });
    if (!r.ok) return setError(r.error.fields[0]?.message ?? r.error.message);
    setError(null);
    setShown(r.data.token);
    form.reset();
    router.refresh();
  }
  async function revoke(id: number) {
    const r = await callApi('DELETE', `/api/v1/tokens/${id}`);
    if (!r.ok) return setError(r.error.message);
    router.refresh();
  }
  return (
    <>
      {shown ? (
        <div className="notice" role="status">
          <p>
            <strong>Your new token (shown once; copy it now):</strong>
          </p>
          <code data-testid="new-token">{shown}</code>
          <p className="small">
            Send it as <code>Authorization: Bearer &lt;token&gt;</code> to POST /api/v1/endpoints.
          </p>
        </div>
      ) : null}
      <form onSubmit={create} className="account-form" aria-label="New API token">
        <Field id="token-name" label="Token name" error={error ?? undefined}>
          {(a) => <input {...a} name="name" placeholder="ci" />}
        </Field>
        <button type="submit">Create token</button>
      </form>
      <div className="table-wrap">
        <table>
          <caption className="sr-only">Your API tokens</caption>
          <thead>
            <tr>
              <th>Name</th>
              <th>Token</th>
              <th>Created</th>
              <th>Last used</th>
              <th>State</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <tr key={t.id}>
                <td>{t.name}</td>
                <td>
                  <code>{t.prefix}…</code>
                </td>
                <td>{t.createdAt.slice(0, 16).replace('T', ' ')}</td>
                <td>{t.lastUsedAt ? t.lastUsedAt.slice(0, 16).replace('T', ' ') : '–'}</td>
                <td>{t.revokedAt ? 'revoked' : 'live'}</td>
                <td>
                  {t.revokedAt ? null : (
                    <button type="button" onClick={() => revoke(t.id)}>
                      Revoke {t.name}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
