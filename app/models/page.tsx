import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { listModels } from '@/db/queries/catalog';
import { getDb } from '@/server/shared';
import { DataTable } from '@/app/_components/data-table';

export const metadata: Metadata = { title: 'Models' };

/** Models in the catalog with their endpoint counts, linking to each leaderboard and history. */
export default async function ModelsPage() {
  await connection();
  const models = await listModels(getDb());
  return (
    <>
      <h1>Models</h1>
      <p className="muted lead">
        Each model has a leaderboard (its endpoints ranked by median output speed per user) and a history (daily medians with change points).
      </p>
      <DataTable label="Models (table)" table="models" columns={['Model', 'Family', { num: 'Endpoints' }, 'Leaderboard', 'History']}>
        {models.map((m) => (
          <tr key={m.slug} data-model={m.slug}>
            <td>{m.name}</td>
            <td>{m.family ?? '–'}</td>
            <td className="num">{m.endpointCount}</td>
            <td>
              <Link href={`/?model=${m.slug}`}>
                leaderboard<span className="sr-only"> of {m.name}</span>
              </Link>
            </td>
            <td>
              <Link href={`/models/${m.slug}`}>
                history<span className="sr-only"> of {m.name}</span>
              </Link>
            </td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
