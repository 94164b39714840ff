import { PageSkeleton } from '@/app/_components/page-skeleton';

/** Skeleton while the page's data loads. */
export default function Loading() {
  return <PageSkeleton label="Loading the history…" />;
}
