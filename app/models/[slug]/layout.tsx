import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { listModels } from '@/db/queries/catalog';
import { getDb } from '@/server/shared';

/** Unknown model → HTTP 404 before the page streams (see app/endpoints/[id]/layout.tsx). */
export default async function ModelLayout({ children, params }: { children: ReactNode; params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  if (!(await listModels(getDb())).some((m) => m.slug === slug)) notFound();
  return children;
}
