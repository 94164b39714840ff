import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { getPublicEndpoint } from '@/db/queries/catalog';
import { getDb } from '@/server/shared';

/**
 * Checks the endpoint exists before the page streams, so an unknown id answers HTTP 404 (a
 * notFound() inside the streamed page, behind loading.tsx, could only answer 200).
 */
export default async function EndpointLayout({ children, params }: { children: ReactNode; params: Promise<{ id: string }> }) {
  const id = Number((await params).id);
  if (!Number.isInteger(id) || id <= 0 || id > 2_147_483_647 || !(await getPublicEndpoint(getDb(), id))) notFound();
  return children;
}
