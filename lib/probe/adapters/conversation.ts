/**
 * Multi-turn conversations with tool calls and tool results, in each protocol's own message shapes
 * (issue 25 item 3, decision 267): what an agent-turn probe sends instead of one user prompt.
 *
 * A conversation is protocol-free: user text, the assistant's tool calls (as the provider streamed
 * them: id, name, argument JSON text) and the tool results fed back. Each adapter turns it into:
 * - OpenAI Chat: `messages` with `{role: "assistant", content: null, tool_calls: [{id, type:
 *   "function", function: {name, arguments}}]}` and `{role: "tool", tool_call_id, content}`
 *   (https://platform.openai.com/docs/guides/function-calling);
 * - OpenAI Responses: `input` items `{type: "function_call", call_id, name, arguments}` and
 *   `{type: "function_call_output", call_id, output}` (https://platform.openai.com/docs/api-reference/responses/create);
 * - Anthropic Messages: assistant content `[{type: "tool_use", id, name, input}]`, user content
 *   `[{type: "tool_result", tool_use_id, content}]` (https://docs.anthropic.com/en/docs/build-with-claude/tool-use);
 * - Bedrock Converse: assistant content `[{toolUse: {toolUseId, name, input}}]`, user content
 *   `[{toolResult: {toolUseId, content: [{text}]}}]` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ContentBlock.html);
 * - Gemini: `contents` with `{role: "model", parts: [{functionCall: {name, args}}]}` and
 *   `{role: "user", parts: [{functionResponse: {name, response: {content}}}]}`
 *   (https://ai.google.dev/gemini-api/docs/function-calling). Gemini 3 models also ask for the
 *   call's `thoughtSignature` back; the probe does not keep it, so such a model may refuse the
 *   second turn (recorded as its http_error, never dropped).
 * The tool itself is declared (and forced) by ./structured-output.ts, as for tool-call-1k.
 * Anthropic, Bedrock and Gemini take the call's arguments as an object: argument text that is not
 * a JSON object cannot be fed back (the caller stops the conversation; see lib/probe/agent-prompts).
 * Pure.
 */
import type { ConversationMessage, Protocol } from '../types';

export type { ConversationMessage };

/** The argument text as an object; {} when it is not a JSON object (callers feed back only valid calls). */
function argsObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The body fields (`messages`, `input` or `contents`) carrying `conversation` in `protocol`'s shapes. */
export function conversationFields(protocol: Protocol, conversation: readonly ConversationMessage[]): Record<string, unknown> {
  switch (protocol) {
    case 'openai-chat':
      return {
        messages: conversation.map((m) =>
          m.role === 'user'
            ? { role: 'user', content: m.text }
            : m.role === 'assistant'
              ? {
                  role: 'assistant',
                  content: null,
                  tool_calls: [{ id: m.toolCall.id, type: 'function', function: { name: m.toolCall.name, arguments: m.toolCall.arguments } }],
                }
              : { role: 'tool', tool_call_id: m.callId, content: m.result },
        ),
      };
    case 'openai-responses':
      return {
        input: conversation.map((m) =>
          m.role === 'user'
            ? { role: 'user', content: m.text }
            : m.role === 'assistant'
              ? { type: 'function_call', call_id: m.toolCall.id, name: m.toolCall.name, arguments: m.toolCall.arguments }
              : { type: 'function_call_output', call_id: m.callId, output: m.result },
        ),
      };
    case 'anthropic-messages':
      return {
        messages: conversation.map((m) =>
          m.role === 'user'
            ? { role: 'user', content: m.text }
            : m.role === 'assistant'
              ? { role: 'assistant', content: [{ type: 'tool_use', id: m.toolCall.id, name: m.toolCall.name, input: argsObject(m.toolCall.arguments) }] }
              : { role: 'user', content: [{ type: 'tool_result', tool_use_id: m.callId, content: m.result }] },
        ),
      };
    case 'bedrock-converse-stream':
      return {
        messages: conversation.map((m) =>
          m.role === 'user'
            ? { role: 'user', content: [{ text: m.text }] }
            : m.role === 'assistant'
              ? { role: 'assistant', content: [{ toolUse: { toolUseId: m.toolCall.id, name: m.toolCall.name, input: argsObject(m.toolCall.arguments) } }] }
              : { role: 'user', content: [{ toolResult: { toolUseId: m.callId, content: [{ text: m.result }] } }] },
        ),
      };
    case 'gemini-stream':
      return {
        contents: conversation.map((m) =>
          m.role === 'user'
            ? { role: 'user', parts: [{ text: m.text }] }
            : m.role === 'assistant'
              ? { role: 'model', parts: [{ functionCall: { name: m.toolCall.name, args: argsObject(m.toolCall.arguments) } }] }
              : { role: 'user', parts: [{ functionResponse: { name: m.name, response: { content: m.result } } }] },
        ),
      };
  }
}
