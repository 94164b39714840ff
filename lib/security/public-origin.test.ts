import { expect, it } from 'vitest';
import { publicOrigin, trustedOrigins, untrustedOriginMessage } from './public-origin';

const env = (url: string | undefined, port = 3000) => ({ TOKENPACE_PUBLIC_URL: url, PORT: port });

it('a local install trusts the loopback aliases of its origin: same scheme and port, nothing else', () => {
  expect(trustedOrigins(env(undefined))).toEqual(['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']);
  expect(trustedOrigins(env('http://127.0.0.1:8080'))).toEqual(['http://127.0.0.1:8080', 'http://localhost:8080', 'http://[::1]:8080']);
  expect(trustedOrigins(env('https://localhost'))).toEqual(['https://localhost', 'https://127.0.0.1', 'https://[::1]']);
  expect(trustedOrigins(env('http://[::1]:4000/some/path'))).toEqual(['http://[::1]:4000', 'http://localhost:4000', 'http://127.0.0.1:4000']);
});

it('a public origin on any other host trusts only itself', () => {
  expect(trustedOrigins(env('https://tokenpace.example'))).toEqual(['https://tokenpace.example']);
  // Look-alikes of loopback names are other hosts.
  expect(trustedOrigins(env('http://localhost.example:3000'))).toEqual(['http://localhost.example:3000']);
  expect(trustedOrigins(env('http://127.0.0.2:3000'))).toEqual(['http://127.0.0.2:3000']);
  expect(trustedOrigins(env('http://10.0.0.5:3000'))).toEqual(['http://10.0.0.5:3000']);
});

it('the refusal says where the site is and which variable moves it', () => {
  const m = untrustedOriginMessage(env('https://tokenpace.example'));
  expect(m).toContain('Open https://tokenpace.example instead');
  expect(m).toContain('TOKENPACE_PUBLIC_URL');
  expect(publicOrigin(env(undefined, 3150))).toBe('http://localhost:3150');
});
