'use client';
import { useEffect, useState } from 'react';

/** localStorage key of the chosen theme ("light" | "dark"); absent = follow the system. */
export const THEME_STORAGE_KEY = 'tokenpace-theme';

/**
 * Inline script for <head>: applies the stored theme before first paint (no flash of the wrong
 * theme). Kept tiny and failure-proof (private mode may refuse localStorage).
 */
export const THEME_BOOT_SCRIPT = `try{var t=localStorage.getItem('${THEME_STORAGE_KEY}');if(t==='light'||t==='dark')document.documentElement.setAttribute('data-theme',t)}catch(e){}`;

function effectiveTheme(): 'light' | 'dark' {
  const set = document.documentElement.getAttribute('data-theme');
  if (set === 'light' || set === 'dark') return set;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/**
 * Light/dark switch in the header. The choice is stored in localStorage and applied as
 * <html data-theme>, which globals.css maps to colour variables. A real button with a state in its
 * accessible name ("Dark theme", pressed or not).
 */
export function ThemeToggle() {
  const [theme, setTheme] = useState<'light' | 'dark' | null>(null);
  useEffect(() => setTheme(effectiveTheme()), []);
  const toggle = () => {
    const next = (theme ?? effectiveTheme()) === 'dark' ? 'light' : 'dark';
    document.documentElement.setAttribute('data-theme', next);
    try {
      localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // storage refused: the theme still applies for this page view
    }
    setTheme(next);
  };
  return (
    <button type="button" className="theme-toggle" onClick={toggle} aria-pressed={theme === 'dark'} data-theme-toggle={theme ?? ''}>
      <span aria-hidden="true">{theme === 'dark' ? '☾' : '☀'}</span> Dark theme
    </button>
  );
}
