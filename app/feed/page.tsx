import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { getDb } from '@/server/shared';
import { EmptyState } from '@/app/_components/empty-state';
import { listNotableChanges } from './notable-changes';

export const metadata: Metadata = { title: 'Notable changes', alternates: { types: { 'application/atom+xml': '/feed.xml' } } };

const KIND_LABEL = {
  'new-leader': 'new #1',
  'change-point': 'change point',
  'new-endpoint': 'endpoint joins',
  'endpoint-leaves': 'endpoint leaves',
  'fidelity-drop': 'fidelity drop',
  dispute: 'dispute',
} as const;

/** The feed as a page: notable changes of the last 90 days, newest first, with the Atom link. */
export default async function FeedPage() {
  await connection();
  const entries = await listNotableChanges(getDb(), { now: new Date(), days: 90, limit: 100 });
  return (
    <>
      <h1>Notable changes</h1>
      <p className="muted lead">
        New #1 endpoints (a challenger must beat the leader&apos;s daily median by more than 5%), change points of daily median output speed, and newly listed
        endpoints, over the last 90 days. Subscribe: <a href="/feed.xml">Atom feed</a>.
      </p>
      {entries.length === 0 ? (
        <EmptyState id="feed" title="Nothing notable yet" level={2}>
          <p>
            Entries appear once endpoints have been measured for a few days. The <Link href="/calibration">calibration</Link> page shows the probes working
            meanwhile.
          </p>
        </EmptyState>
      ) : (
        <ol className="feed-list" data-testid="feed">
          {entries.map((e) => (
            <li key={e.id} data-kind={e.kind} data-entry={e.id}>
              <span className="tag">{KIND_LABEL[e.kind]}</span> <time dateTime={e.updated}>{e.updated.slice(0, 10)}</time> <Link href={e.path}>{e.title}</Link>
              <p className="muted small">{e.summary}</p>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
