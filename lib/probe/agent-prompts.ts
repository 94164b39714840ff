/**
 * The agent-turn conversation (issue 25 item 3, decision 267): a task with ~1,100 tokens of notes,
 * then {@link AGENT_TURNS} turns in which the model is forced to call `save_section` (arguments
 * {title, story}, ./structured-prompts STORY_SCHEMA) and each call's result, fed back in the
 * protocol's own tool-result shape (adapters/conversation.ts), brings ~300 tokens of new notes: the
 * prefix grows every turn (task, call 1, result 1, call 2, result 2, ...), as in a coding agent's
 * session, so a prompt cache can serve every turn after the first from the turns before it.
 *
 * Every text is drawn from the prompt pool with the conversation's key (slot + 128 secret random
 * bits, decision 173; ./prompt-pool.ts, decision 174): nothing of it is predictable, the first
 * turn's prefix is new to the provider, and each turn's new material is too. Pure, deterministic
 * per key.
 */
import { createHash } from 'node:crypto';
import type { ConversationMessage } from './adapters/conversation';
import type { StructuredOutputRequest } from './adapters/structured-output';
import { STORY_SCHEMA } from './structured-prompts';
import type { ProbeResult } from './types';
import { buildPrompt } from './workloads';

/** Turns of one conversation (each one request; 3 is the issue's lower bound, kept for the probe budget). */
export const AGENT_TURNS = 3;
/** o200k tokens of the first turn's prompt (above every provider's 1,024-token caching threshold). */
export const AGENT_FIRST_TURN_TOKENS = 1_100;
/** o200k tokens of each tool result's new notes. */
export const AGENT_TOOL_RESULT_TOKENS = 300;

/** The tool every turn is forced to call. */
export const AGENT_TOOL: StructuredOutputRequest = {
  kind: 'tool_call',
  name: 'save_section',
  description: 'Saves one section of the story (its title and its text); returns the notes for the next section.',
  schema: STORY_SCHEMA,
};

const TASK_CLOSING =
  '\n\nWrite the story in sections. For each section call save_section once with a title and about 100 words of text; the tool answers with the notes for the next section.';

/** The conversation's first user message and the tool results of turns 1 … AGENT_TURNS − 1, under `key`. */
export function buildAgentMaterial(key: string): { task: string; toolResults: string[] } {
  const task = buildPrompt({ slug: 'agent-turns', category: 'prose', inputTokensTarget: AGENT_FIRST_TURN_TOKENS - 40 }, key).prompt + TASK_CLOSING;
  const toolResults = Array.from(
    { length: AGENT_TURNS - 1 },
    (_, i) =>
      `Saved section ${i + 1}. Notes for section ${i + 2}:\n\n${buildPrompt({ slug: `agent-turns-result-${i + 1}`, category: 'prose', inputTokensTarget: AGENT_TOOL_RESULT_TOKENS - 12 }, key).prompt}`,
  );
  return { task, toolResults };
}

/** SHA-256 of a conversation as sent (the measurement's prompt hash). */
export function hashConversation(conversation: readonly ConversationMessage[]): string {
  return createHash('sha256').update(JSON.stringify(conversation)).digest('hex');
}

/**
 * The call to feed back after a turn: the turn's first tool call whose arguments are a JSON object,
 * with its id (or `call_<turn>` when the protocol gives none, e.g. Gemini); null when the turn
 * failed or made no such call (the conversation then stops: what follows cannot be sent in the
 * protocol's shapes).
 */
export function callToFeedBack(result: Pick<ProbeResult, 'outcome' | 'toolCalls'>, turn: number): { id: string; name: string; arguments: string } | null {
  if (result.outcome !== 'success') return null;
  for (const c of result.toolCalls) {
    try {
      const v: unknown = JSON.parse(c.arguments);
      if (typeof v === 'object' && v !== null && !Array.isArray(v))
        return { id: c.id ?? `call_${turn}`, name: c.name ?? AGENT_TOOL.name, arguments: c.arguments };
    } catch {
      // not JSON: try the next call
    }
  }
  return null;
}
