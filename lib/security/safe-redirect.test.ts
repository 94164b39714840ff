import { describe, expect, it } from 'vitest';
import { resolveSameOriginPath } from './safe-redirect';

const ORIGIN = 'http://localhost:3000';

describe('resolveSameOriginPath (sign-in/up ?next=)', () => {
  it.each([
    '/\t/evil.example/phish', // the finding: next=%2F%09%2Fevil.example%2Fphish
    '/\n/evil.example',
    '/\r\n/evil.example',
    '//evil.example',
    '/\\evil.example',
    '\\/evil.example',
    '/\\/evil.example',
    ' //evil.example',
    'https://evil.example/',
    'http://localhost:3001/dashboard',
    'javascript:alert(1)',
    'java\tscript:alert(1)',
    'dashboard',
    '',
    // issue 19: paths that normalise to `//host`
    '/.//evil.example/phish',
    '/./\\/evil.example',
    '/.\\/evil.example',
    '/a/..//evil.example',
    '/a/../\\evil.example',
    '/././/evil.example',
    '/%2e//evil.example',
    '/%2E%2E//evil.example',
    '/./\t/evil.example',
    '/.\n//evil.example',
    '/\t./\t/evil.example',
    'https:evil.example',
    'https:/evil.example',
    'http:/\\evil.example',
    '\\\\evil.example',
    '//',
    '///evil.example',
    '/.//',
  ])('refuses %j', (next) => {
    expect(resolveSameOriginPath(next, ORIGIN)).toBe('/dashboard');
  });

  it.each([
    ['/dashboard', '/dashboard'],
    ['/dashboard/endpoints/7?tab=x#a', '/dashboard/endpoints/7?tab=x#a'],
    ['/submit', '/submit'],
    ['/a/../admin', '/admin'],
  ])('keeps %j', (next, expected) => {
    expect(resolveSameOriginPath(next, ORIGIN)).toBe(expected);
  });

  it.each([
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'], // encoded slashes stay a path segment of ours
    ['/%5C%5Cevil.example', '/%5C%5Cevil.example'],
    ['/./dashboard', '/dashboard'],
    ['/.%2F/evil.example', '/.%2F/evil.example'],
    ['/./%09/evil.example', '/%09/evil.example'],
  ])('keeps the encoded or dot form %j as a same-origin path', (next, expected) => {
    expect(resolveSameOriginPath(next, ORIGIN)).toBe(expected);
  });

  it('whatever it returns, a browser navigating to it stays on the origin (property over generated variants)', () => {
    const parts = ['/', '.', '..', '\\', '\t', '\n', '%2F', '%5C', '%2e', 'evil.example', ':', 'https:', '?', '#', '@'];
    let n = 0;
    const walk = (prefix: string, depth: number) => {
      if (depth === 0) return;
      for (const p of parts) {
        const next = prefix + p;
        const out = resolveSameOriginPath(next, ORIGIN);
        // the browser's own resolution of what we hand it
        expect(new URL(out, `${ORIGIN}/signin`).origin, JSON.stringify(next)).toBe(ORIGIN);
        expect(out.startsWith('//') || out.startsWith('/\\'), JSON.stringify(next)).toBe(false);
        n++;
        walk(next, depth - 1);
      }
    };
    walk('', 4);
    expect(n).toBeGreaterThan(50_000);
  });

  it('uses the fallback when next is absent', () => {
    expect(resolveSameOriginPath(undefined, ORIGIN, '/')).toBe('/');
  });
});
