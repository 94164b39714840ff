import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { listEndpoints } from '@/db/queries/catalog';
import { getProviderBySlug } from '@/db/queries/ui-endpoint';
import { getDb } from '@/server/shared';

/**
 * Unknown provider → HTTP 404 before the page streams (see app/endpoints/[id]/layout.tsx). So is a
 * provider with no public endpoint: one named only by pending, rejected or deleted submissions
 * (look-alike names included) gets no public page until an admin approves an endpoint of it.
 */
export default async function ProviderLayout({ children, params }: { children: ReactNode; params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  if (!/^[a-z0-9][a-z0-9-]{0,80}$/.test(slug)) notFound();
  const db = getDb();
  const [provider, listed] = await Promise.all([getProviderBySlug(db, slug), listEndpoints(db, { providerSlug: slug })]);
  if (!provider || listed.length === 0) notFound();
  return children;
}
