/**
 * Structured output and forced tool calls in each protocol's own request shape (issue 25 item 2):
 * what a probe of a `structured-*` workload adds to its request body.
 *
 * - `json_schema`: the protocol's structured-output request. OpenAI Chat `response_format:
 *   {type: "json_schema", json_schema: {name, schema, strict: true}}`
 *   (https://platform.openai.com/docs/guides/structured-outputs); Responses `text.format:
 *   {type: "json_schema", name, schema, strict: true}`; Gemini `generationConfig.responseMimeType:
 *   "application/json"` + `responseSchema` (https://ai.google.dev/gemini-api/docs/structured-output);
 *   Anthropic and Bedrock have no schema mode for text, so the schema is a tool the model is forced
 *   to call (Anthropic `tool_choice: {type: "tool", name}`,
 *   https://docs.anthropic.com/en/docs/build-with-claude/tool-use; Bedrock `toolChoice.tool`).
 * - `tool_call`: one function whose parameters are the schema, forced: OpenAI Chat `tools` +
 *   `tool_choice: {type: "function", function: {name}}`; Responses `tools: [{type: "function",
 *   name, parameters}]` + `tool_choice: {type: "function", name}`; Anthropic forced tool; Gemini
 *   `tools.functionDeclarations` + `toolConfig.functionCallingConfig: {mode: "ANY",
 *   allowedFunctionNames}`; Bedrock `toolConfig` with `toolChoice.tool`.
 * Tool-call argument deltas are generated tokens (DESIGN §1: TTFT and N count tool arguments), so
 * speed is measured on them as on text. Pure.
 */
import type { Protocol, StructuredOutputRequest } from '../types';

export type { StructuredOutputRequest };

/** Gemini's schema dialect (OpenAPI subset): no additionalProperties. */
function geminiSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { additionalProperties: _drop, ...rest } = schema;
  void _drop;
  return rest;
}

/** The body fields `protocol` adds for `output` (merged into the request body by the adapter). */
export function structuredOutputFields(protocol: Protocol, output: StructuredOutputRequest): Record<string, unknown> {
  const { name, description, schema } = output;
  switch (protocol) {
    case 'openai-chat':
      return output.kind === 'json_schema'
        ? { response_format: { type: 'json_schema', json_schema: { name, schema, strict: true } } }
        : {
            tools: [{ type: 'function', function: { name, description, parameters: schema, strict: true } }],
            tool_choice: { type: 'function', function: { name } },
          };
    case 'openai-responses':
      return output.kind === 'json_schema'
        ? { text: { format: { type: 'json_schema', name, schema, strict: true } } }
        : { tools: [{ type: 'function', name, description, parameters: schema, strict: true }], tool_choice: { type: 'function', name } };
    case 'anthropic-messages':
      return { tools: [{ name, description, input_schema: schema }], tool_choice: { type: 'tool', name } };
    case 'gemini-stream':
      return output.kind === 'json_schema'
        ? { generationConfig: { responseMimeType: 'application/json', responseSchema: geminiSchema(schema) } }
        : {
            tools: [{ functionDeclarations: [{ name, description, parameters: geminiSchema(schema) }] }],
            toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [name] } },
          };
    case 'bedrock-converse-stream':
      return { toolConfig: { tools: [{ toolSpec: { name, description, inputSchema: { json: schema } } }], toolChoice: { tool: { name } } } };
  }
}
