import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import './globals.css';
import { Providers } from './providers';
import { THEME_BOOT_SCRIPT, ThemeToggle } from './_components/theme-toggle';

export const metadata: Metadata = {
  title: { default: 'Tokenpace: LLM output speed per user, measured', template: '%s · Tokenpace' },
  description: 'Open, continuously measured ranking of LLM inference providers by TPS/user, TTFT and end-to-end latency, with evidence.',
  alternates: { types: { 'application/atom+xml': [{ url: '/feed.xml', title: 'Tokenpace: notable changes' }] } },
};

/** Site shell: header navigation, main content, footer. */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_BOOT_SCRIPT }} />
      </head>
      <body>
        <a href="#content" className="skip-link">
          Skip to content
        </a>
        <header className="site">
          <Link href="/" className="brand">
            Tokenpace
          </Link>
          <nav aria-label="Main">
            <Link href="/">Leaderboard</Link>
            <Link href="/history">History</Link>
            <Link href="/compare">Compare</Link>
            <Link href="/providers">Providers</Link>
            <Link href="/calibration">Calibration</Link>
            <Link href="/claims">Claims</Link>
            <Link href="/datasets">Imported data</Link>
            <Link href="/methodology">Methodology</Link>
            <Link href="/api-docs">API</Link>
            <Link href="/submit">Submit</Link>
            <Link href="/dashboard">Dashboard</Link>
          </nav>
          <ThemeToggle />
        </header>
        <Providers>
          <main id="content">{children}</main>
        </Providers>
        <footer className="site">
          Tokenpace measures output speed per user (TPS/user) of streamed LLM responses. Claims and imported data are shown apart from our measurements.
        </footer>
      </body>
    </html>
  );
}
