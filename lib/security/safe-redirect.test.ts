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

  it('uses the fallback when next is absent', () => {
    expect(resolveSameOriginPath(undefined, ORIGIN, '/')).toBe('/');
  });
});
