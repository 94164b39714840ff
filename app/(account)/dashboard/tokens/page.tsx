import type { Metadata } from 'next';
import Link from 'next/link';
import { listApiTokens } from '@/db/queries/accounts';
import { getDb } from '@/server/shared';
import { TokenManager } from '../../_components/token-manager';
import { requirePageUser } from '../../_lib/page-user';

export const metadata: Metadata = { title: 'API tokens' };

/** /dashboard/tokens – personal API tokens for programmatic submission (created, shown once, revoked). */
export default async function TokensPage() {
  const user = await requirePageUser('/dashboard/tokens');
  const tokens = await listApiTokens(getDb(), user.id);
  return (
    <>
      <h1>API tokens</h1>
      <p className="lead">
        Submit endpoints from scripts: <code>POST /api/v1/endpoints</code> with <code>Authorization: Bearer &lt;token&gt;</code>. Only a hash of each token is
        stored. <Link href="/dashboard">Back to your endpoints</Link>.
      </p>
      <TokenManager
        tokens={tokens.map((t) => ({
          ...t,
          createdAt: t.createdAt.toISOString(),
          lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
          revokedAt: t.revokedAt?.toISOString() ?? null,
        }))}
      />
    </>
  );
}
