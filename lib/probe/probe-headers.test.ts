import { expect, it } from 'vitest';
import { probeHeadersSchema } from './probe-headers';

it('accepts up to 4 operator headers, lower-casing names', () => {
  expect(probeHeadersSchema.parse({ 'X-Benchmark-Client': 'tokenpace', 'accept-encoding': 'identity' })).toEqual({
    'x-benchmark-client': 'tokenpace',
    'accept-encoding': 'identity',
  });
});

it('refuses reserved names, bad names, control characters and more than 4 headers, naming the problem', () => {
  const issue = (v: unknown) => probeHeadersSchema.safeParse(v).error?.issues[0];
  expect(issue({ Authorization: 'Bearer x' })?.message).toBe('is reserved: the adapter sets it');
  expect(issue({ 'bad name': 'x' })?.message).toMatch(/HTTP header name/);
  expect(issue({ 'x-a': 'line\r\nInjected: 1' })?.message).toMatch(/visible ASCII/);
  expect(issue({ a: '1', b: '2', c: '3', d: '4', e: '5' })?.message).toBe('at most 4 headers');
});
