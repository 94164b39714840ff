/**
 * Decision 191: text sent again counts once, on every channel; the thresholds of the repeat rule
 * (two earlier pieces for text, complete JSON objects for arguments) at, under and over.
 */
import { describe, expect, it } from 'vitest';
import { resolveStreamTexts, type RecordedEvent } from './stream-accumulator';

const answers = (...pieces: string[]): RecordedEvent[] => pieces.map((answer, i) => ({ atMs: i, answer, reasoning: '', toolArgs: '', toolPieces: [] }));
const args = (...pieces: string[]): RecordedEvent[] =>
  pieces.map((text, i) => ({ atMs: i, answer: '', reasoning: '', toolArgs: text, toolPieces: [{ key: 'c', text }] }));
const answerOf = (events: RecordedEvent[]) =>
  resolveStreamTexts(events, true)
    .events.map((e) => e.answer)
    .join('');
const argsOf = (events: RecordedEvent[]) => resolveStreamTexts(events, true).toolArguments.get('c');

describe('resolveStreamTexts', () => {
  it('a whole-text repeat after two earlier pieces is dropped; after one it is text (a coincidence)', () => {
    expect(answerOf(answers('ha', 'ha'))).toBe('haha');
    expect(answerOf(answers('a', 'b', 'ab'))).toBe('ab');
    expect(answerOf(answers('a', 'b', 'abc'))).toBe('abc');
    expect(resolveStreamTexts(answers('a', 'b', 'ab'), true).events).toHaveLength(2);
  });

  it('cumulative pieces keep their new suffix', () => {
    expect(answerOf(answers('a', 'ab', 'abc'))).toBe('abc');
    // never growing: not cumulative, plain text
    expect(answerOf(answers('x', 'x'))).toBe('xx');
  });

  it('arguments: a repeat of a complete object is dropped, a new complete object replaces, scalars concatenate', () => {
    expect(argsOf(args('{"a":1}', '{"a":1}', '{"a":1}'))).toBe('{"a":1}');
    expect(argsOf(args('{"a":1}', '{"a":1,"b":2}'))).toBe('{"a":1,"b":2}');
    expect(argsOf(args('{"a":', '1}'))).toBe('{"a":1}');
    expect(argsOf(args('1', '2'))).toBe('12');
    expect(argsOf(args('{"c', '{"city":"P', '{"city":"Paris"}'))).toBe('{"city":"Paris"}');
  });

  it('without the rules (mayBeCumulative false) pieces are concatenated as sent', () => {
    expect(resolveStreamTexts(args('{"a":1}', '{"a":1}'), false).toolArguments.get('c')).toBe('{"a":1}{"a":1}');
  });
});
