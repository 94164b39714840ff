import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { listProviders } from '@/db/queries/catalog';
import { getDb } from '@/server/shared';
import { DataTable } from '@/app/_components/data-table';

export const metadata: Metadata = { title: 'Providers' };

/** Providers in the catalog with endpoint counts, linking to each provider page. */
export default async function ProvidersPage() {
  await connection();
  const providers = await listProviders(getDb());
  return (
    <>
      <h1>Providers</h1>
      <p className="muted lead">
        Companies and teams whose endpoints Tokenpace lists. Each provider page shows its endpoints, their status and where they rank. Calibration is our own
        reference stream, shown for accuracy.
      </p>
      <DataTable label="Providers (table)" table="providers" columns={['Provider', 'Kind', { num: 'Endpoints' }, 'Website']}>
        {providers.map((p) => (
          <tr key={p.slug} data-provider={p.slug}>
            <td>
              <Link href={`/providers/${p.slug}`}>{p.name}</Link>
            </td>
            <td>{p.kind === 'calibration' ? 'calibration (ours)' : p.slug.startsWith('synthetic-') ? 'synthetic demo' : 'provider'}</td>
            <td className="num">{p.endpointCount}</td>
            <td>
              {p.websiteUrl ? (
                <a href={p.websiteUrl} rel="noopener noreferrer">
                  {p.websiteUrl.replace(/^https?:\/\//, '').replace(/\/$/, '')}
                </a>
              ) : (
                '–'
              )}
            </td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
