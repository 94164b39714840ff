import { describe, expect, it } from 'vitest';
import { parseTrustedProxies, resolveClientAddress } from './client-address';

describe('resolveClientAddress', () => {
  const none = parseTrustedProxies(undefined);
  const proxies = parseTrustedProxies('127.0.0.1, 10.0.0.0/8, ::1');

  it('without trusted proxies: the socket peer, whatever X-Forwarded-For says', () => {
    expect(resolveClientAddress({ peerAddress: '198.51.100.9', forwardedFor: '1.2.3.4', trusted: none })).toBe('198.51.100.9');
    expect(resolveClientAddress({ peerAddress: '::ffff:198.51.100.9', forwardedFor: null, trusted: none })).toBe('198.51.100.9');
    expect(resolveClientAddress({ peerAddress: '127.0.0.1', forwardedFor: '1.2.3.4', trusted: none })).toBe('127.0.0.1');
    expect(resolveClientAddress({ peerAddress: null, forwardedFor: '1.2.3.4', trusted: none })).toBe('unknown');
  });

  it('from an untrusted peer the header is ignored even with proxies configured', () => {
    expect(resolveClientAddress({ peerAddress: '198.51.100.9', forwardedFor: '1.2.3.4', trusted: proxies })).toBe('198.51.100.9');
  });

  it('behind trusted proxies: the right-most untrusted hop', () => {
    expect(resolveClientAddress({ peerAddress: '127.0.0.1', forwardedFor: '1.2.3.4, 198.51.100.7', trusted: proxies })).toBe('198.51.100.7');
    expect(resolveClientAddress({ peerAddress: '::ffff:10.1.2.3', forwardedFor: 'forged, 198.51.100.7, 10.0.0.5', trusted: proxies })).toBe('10.1.2.3');
    expect(resolveClientAddress({ peerAddress: '10.1.2.3', forwardedFor: '203.0.113.5, 198.51.100.7, 10.0.0.5', trusted: proxies })).toBe('198.51.100.7');
    expect(resolveClientAddress({ peerAddress: '::1', forwardedFor: '10.0.0.1, 127.0.0.1', trusted: proxies })).toBe('10.0.0.1');
    expect(resolveClientAddress({ peerAddress: '127.0.0.1', forwardedFor: null, trusted: proxies })).toBe('127.0.0.1');
  });

  it('refuses a bad TOKENPACE_TRUSTED_PROXIES entry by name', () => {
    expect(() => parseTrustedProxies('10.0.0.0/8, proxy.example')).toThrow(/proxy\.example/);
  });
});
