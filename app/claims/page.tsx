import type { Metadata } from 'next';
import { connection } from 'next/server';
import { listClaims } from '@/db/queries/claims';
import { getDb } from '@/server/shared';
import { ClaimsList } from '@/app/_components/claims-list';

export const metadata: Metadata = { title: 'Claims' };

/** All published claims, with source and bound, kept apart from measurements. */
export default async function ClaimsPage() {
  await connection();
  const items = await listClaims(getDb());
  return (
    <>
      <h1>Published claims</h1>
      <p className="muted">
        Figures reported by vendors or third parties (press, benchmark firms). Tokenpace did not measure these; they are shown for context with their bound
        (&lt; = upper bound, ≈ = approximate) and source. Also as <a href="/api/v1/claims">JSON</a> and <a href="/api/v1/claims.csv">CSV</a>.
      </p>
      <ClaimsList items={items} heading="Claims" />
    </>
  );
}
