import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { listDatasets } from '@/db/queries/datasets';
import { getDb } from '@/server/shared';

export const metadata: Metadata = { title: 'Imported data' };

/** Imported third-party datasets, each with provenance and licence. */
export default async function DatasetsPage() {
  await connection();
  const items = await listDatasets(getDb());
  return (
    <>
      <h1>Imported data</h1>
      <p className="muted">
        Measurements made by others, imported with their provenance. They are not Tokenpace measurements and are never mixed into the leaderboard.
      </p>
      {items.length === 0 ? (
        <p className="card">
          No datasets imported yet. Run <code>npx tokenpace import llmperf &lt;dir&gt;</code>.
        </p>
      ) : null}
      {items.map((d) => (
        <section key={d.slug} className="card">
          <h2 style={{ marginTop: 0 }}>
            <Link href={`/datasets/${d.slug}`}>{d.title}</Link>
          </h2>
          <p>
            Source:{' '}
            {d.sourceUrl ? (
              <a href={d.sourceUrl} rel="noopener noreferrer">
                {d.source}
              </a>
            ) : (
              d.source
            )}
            {d.sourceCommit ? ` @ ${d.sourceCommit.slice(0, 12)}` : ''} · collected {d.collectedOn ?? 'unknown'} · licence {d.licence}
          </p>
        </section>
      ))}
    </>
  );
}
