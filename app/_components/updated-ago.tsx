'use client';
import { useEffect, useState } from 'react';

/**
 * "updated N s ago", re-rendered once a second on its own (so the rest of the page does not
 * re-render). The ticking text is hidden from screen readers; they read the fixed clock time.
 * `updatedAt` is epoch ms.
 */
export function UpdatedAgo({ updatedAt }: { updatedAt: number }) {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const seconds = now === null ? 0 : Math.max(0, Math.round((now - updatedAt) / 1000));
  const text = seconds < 90 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
  return (
    <span data-updated-at={updatedAt}>
      <span aria-hidden="true">updated {text} ago</span>
      <span className="sr-only">updated at {new Date(updatedAt).toISOString().slice(11, 19)} UTC</span>
    </span>
  );
}
