/**
 * Prompts and the fidelity check of the structured-output family (issue 25 item 2): the prose-1k
 * story asked for as a JSON object {title, story}, sent with the protocol's structured-output
 * request or a forced tool (adapters/structured-output.ts); the answer (the text, or the forced
 * call's arguments) must parse and validate against {@link STORY_SCHEMA}. Pure.
 */
import { createHash } from 'node:crypto';
import type { StructuredOutputRequest } from './adapters/structured-output';
import type { ProbeResult } from './types';
import { buildPrompt, type BuiltPrompt, type Workload } from './workloads';

/** The schema every structured probe sends: an object with a string title and a string story, nothing else. */
export const STORY_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: { title: { type: 'string' }, story: { type: 'string' } },
  required: ['title', 'story'],
  additionalProperties: false,
};

const CLOSING = '\n\nReturn the story as one JSON object with a "title" string and the whole story in a "story" string.';

/** The request and prompt of a structured workload under `key` (slot + secret bits, decision 173). */
export function buildStructuredProbe(
  workload: Pick<Workload, 'slug' | 'inputTokensTarget' | 'outputKind'>,
  key: string,
): { built: BuiltPrompt; output: StructuredOutputRequest } {
  const kind = workload.outputKind ?? 'json_schema';
  // ~25 tokens of closing instruction: the notes are that much shorter, so the prompt stays ~1k.
  const base = buildPrompt({ slug: workload.slug, category: 'prose', inputTokensTarget: workload.inputTokensTarget - 25 }, key).prompt;
  const prompt = base + CLOSING;
  return {
    built: { prompt, promptHash: createHash('sha256').update(prompt).digest('hex'), fidelity: null },
    output: { kind, name: 'write_story', description: 'Records the story written from the notes: its title and its full text.', schema: STORY_SCHEMA },
  };
}

/** The verdict of a structured probe: its answer validates against STORY_SCHEMA; null when the probe failed. */
export function judgeStructuredAnswer(result: Pick<ProbeResult, 'outcome' | 'answerText' | 'toolCalls'>): {
  fidelityCheck: 'json_schema';
  fidelityPassed: boolean | null;
  fidelityDetail: Record<string, unknown> | null;
} {
  if (result.outcome !== 'success') return { fidelityCheck: 'json_schema', fidelityPassed: null, fidelityDetail: null };
  const call = result.toolCalls.find((c) => c.arguments.trim() !== '');
  const text = (call ? call.arguments : result.answerText).trim();
  const failures: string[] = [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    failures.push('invalid_json');
  }
  if (failures.length === 0) {
    const o = value as Record<string, unknown>;
    const ok =
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      typeof o.title === 'string' &&
      typeof o.story === 'string' &&
      Object.keys(o).every((k) => k === 'title' || k === 'story');
    if (!ok) failures.push('schema_mismatch');
  }
  return {
    fidelityCheck: 'json_schema',
    fidelityPassed: failures.length === 0,
    fidelityDetail: { expected: 'STORY_SCHEMA {title, story}', got: call ? 'tool call arguments' : 'answer text', failures },
  };
}
