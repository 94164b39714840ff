import { describe, expect, it } from 'vitest';
import { STORY_SCHEMA } from '../structured-prompts';
import { PROTOCOLS } from '../types';
import { getAdapter } from './registry';
import type { StructuredOutputRequest } from './structured-output';
import { adapterTestUrl } from '../test-support/adapter-test-url';

const out = (kind: StructuredOutputRequest['kind']): StructuredOutputRequest => ({ kind, name: 'write_story', description: 'd', schema: STORY_SCHEMA });
const body = (protocol: (typeof PROTOCOLS)[number], kind: StructuredOutputRequest['kind'] | null) => {
  const url = adapterTestUrl(protocol);
  const built = getAdapter(protocol).buildRequest({ url, model: 'm', apiKey: 'k', prompt: 'p', maxOutputTokens: 256, output: kind ? out(kind) : null });
  return JSON.parse(built.init.body) as Record<string, any>;
};

describe("each protocol's own structured-output and forced-tool request", () => {
  it('json_schema', () => {
    expect(body('openai-chat', 'json_schema').response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'write_story', schema: STORY_SCHEMA, strict: true },
    });
    expect(body('openai-responses', 'json_schema').text).toEqual({ format: { type: 'json_schema', name: 'write_story', schema: STORY_SCHEMA, strict: true } });
    expect(body('anthropic-messages', 'json_schema').tool_choice).toEqual({ type: 'tool', name: 'write_story' });
    const g = body('gemini-stream', 'json_schema');
    expect(g.generationConfig).toMatchObject({ maxOutputTokens: 256, responseMimeType: 'application/json' });
    expect(g.generationConfig.responseSchema.additionalProperties).toBeUndefined();
    expect(body('bedrock-converse-stream', 'json_schema').toolConfig.toolChoice).toEqual({ tool: { name: 'write_story' } });
  });

  it('tool_call: forced, with the schema as parameters', () => {
    const c = body('openai-chat', 'tool_call');
    expect(c.tool_choice).toEqual({ type: 'function', function: { name: 'write_story' } });
    expect(c.tools[0].function.parameters).toEqual(STORY_SCHEMA);
    expect(body('openai-responses', 'tool_call').tool_choice).toEqual({ type: 'function', name: 'write_story' });
    expect(body('anthropic-messages', 'tool_call').tools[0].input_schema).toEqual(STORY_SCHEMA);
    expect(body('gemini-stream', 'tool_call').toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['write_story'] } });
    expect(body('bedrock-converse-stream', 'tool_call').toolConfig.tools[0].toolSpec.inputSchema.json).toEqual(STORY_SCHEMA);
  });

  it('free text adds nothing', () => {
    for (const p of PROTOCOLS) {
      const b = body(p, null);
      for (const k of ['response_format', 'tools', 'tool_choice', 'toolConfig', 'text']) expect(b[k], `${p} ${k}`).toBeUndefined();
    }
  });
});
