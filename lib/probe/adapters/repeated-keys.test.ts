/**
 * The repeated-key scan (decision 318) against JSON.parse's own reading: every path it names is a
 * key an object really repeats, escapes and nesting included, and text that only looks like a key
 * (inside strings, in arrays) is none.
 */
import { describe, expect, it } from 'vitest';
import { findRepeatedKey, repeatedKeyPath } from './repeated-keys';

describe('findRepeatedKey', () => {
  it.each<[string, string]>([
    ['{"a":1,"a":2}', 'a'],
    ['{"choices":[{"delta":{"content":"a","content":"b"}}]}', 'choices[0].delta.content'],
    ['{"choices":[{"index":0},{"index":1,"finish_reason":"stop","finish_reason":"length"}]}', 'choices[1].finish_reason'],
    ['{"usage":{"completion_tokens":5},"usage":{"completion_tokens":500}}', 'usage'],
    ['{"x":{"y":[1,2,{"z":0,"w":1,"z":2}]}}', 'x.y[2].z'],
    // the same key spelled with an escape, as JSON.parse reads it
    ['{"content":"a","\\u0063ontent":"b"}', 'content'],
    ['{"a\\"b":1,"a\\"b":2}', 'a"b'],
    ['[{"error":{"code":1,"code":2}}]', '[0].error.code'],
  ])('%s repeats %s', (text, path) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(findRepeatedKey(text)).toBe(path);
  });

  it.each([
    '{"choices":[{"delta":{"content":"a"}},{"delta":{"content":"b"}}]}',
    '{"a":{"a":{"a":1}}}',
    '{"content":"\\"content\\":\\"b\\"","text":"{\\"content\\":1}"}',
    '{"a":"x\\\\","b":"\\\\\\"a\\":"}',
    '["a","a",{"a":1},{"a":2}]',
    '{}',
    '{"a":1,"A":2}',
    '{"k":[{"x":1},{"x":2}],"x":3}',
  ])('%s repeats none', (text) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(findRepeatedKey(text)).toBeNull();
  });

  it('names the evidence path', () => {
    expect(repeatedKeyPath('{"a":1,"a":2}')).toBe('a (repeated key)');
    expect(repeatedKeyPath('{"a":1}')).toBeNull();
  });

  it('finds a repeat among 50,000 keys of a 1 MB event (the cost is measured in bench/repeated-keys.ts)', () => {
    const keys = Array.from({ length: 50_000 }, (_, i) => `"k${i}":"${'v'.repeat(10)}"`);
    expect(findRepeatedKey(`{${keys.join(',')},"k7":1}`)).toBe('k7');
    expect(findRepeatedKey(`{${keys.join(',')}}`)).toBeNull();
  });
});
