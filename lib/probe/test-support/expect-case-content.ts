import { expect } from 'vitest';
import type { ProbeResult } from '../types';
import type { ReplayCase } from './replay-case';

/**
 * Asserts the content a replay case expects (`e`, its `expect` block) of a probe result: answer
 * text, reasoning text ('' when the case names none), tool calls ([] when none), finish reason,
 * content chunks and the reported output tokens.
 */
export function expectCaseContent(r: ProbeResult, e: ReplayCase['expect']): void {
  expect(r.answerText).toBe(e.answer_text);
  expect(r.reasoningText).toBe(e.reasoning_text ?? '');
  expect(r.toolCalls).toEqual(e.tool_calls ?? []);
  expect(r.finishReason).toBe(e.finish_reason);
  expect(r.contentChunks).toBe(e.content_chunks);
  expect(r.outputTokensReported).toBe(e.output_tokens_reported);
}
