import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { listDatasets } from '@/db/queries/datasets';
import { getDb } from '@/server/shared';

/** Unknown dataset → HTTP 404 before the page streams (see app/endpoints/[id]/layout.tsx). */
export default async function DatasetLayout({ children, params }: { children: ReactNode; params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  if (!(await listDatasets(getDb())).some((d) => d.slug === slug)) notFound();
  return children;
}
