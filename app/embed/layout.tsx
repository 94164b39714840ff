import type { Metadata } from 'next';
import type { ReactNode } from 'react';

export const metadata: Metadata = { robots: { index: false } };

/**
 * Chrome-less wrapper for iframe embeds: the site header and footer are hidden by CSS
 * (body:has(.embed-root)), leaving the chart, its table alternative and an attribution link.
 */
export default function EmbedLayout({ children }: { children: ReactNode }) {
  return <div className="embed-root">{children}</div>;
}
