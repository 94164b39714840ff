import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { getProviderBySlug } from '@/db/queries/ui-endpoint';
import { getDb } from '@/db/shared';

/** Unknown provider → HTTP 404 before the page streams (see app/endpoints/[id]/layout.tsx). */
export default async function ProviderLayout({ children, params }: { children: ReactNode; params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  if (!/^[a-z0-9][a-z0-9-]{0,80}$/.test(slug) || !(await getProviderBySlug(getDb(), slug))) notFound();
  return children;
}
