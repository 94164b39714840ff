import type { ReactNode } from 'react';
import './account.css';

/** Account pages (sign-up/in, submission, dashboard, review): private, never cached. */
export default function AccountLayout({ children }: { children: ReactNode }) {
  return <>{children}</>;
}
