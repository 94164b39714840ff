import { describe, expect, it } from 'vitest';
import { AGENT_TOOL, buildAgentMaterial, callToFeedBack } from '../agent-prompts';
import { PROTOCOLS, type Protocol } from '../types';
import { encodeO200k } from '../../tokens/o200k';
import type { ConversationMessage } from './conversation';
import { getAdapter } from './registry';
import { adapterTestUrl } from '../test-support/adapter-test-url';

const conversation: ConversationMessage[] = [
  { role: 'user', text: 'task' },
  { role: 'assistant', toolCall: { id: 'call_1', name: 'save_section', arguments: '{"title":"T","story":"S"}' } },
  { role: 'tool', callId: 'call_1', name: 'save_section', result: 'notes 2' },
];
const body = (protocol: Protocol) => {
  const url = adapterTestUrl(protocol);
  const built = getAdapter(protocol).buildRequest({ url, model: 'm', apiKey: 'k', prompt: 'task', maxOutputTokens: 256, output: AGENT_TOOL, conversation });
  return JSON.parse(built.init.body) as Record<string, any>;
};

describe("agent conversations in each protocol's own tool-call and tool-result shapes", () => {
  it('every protocol: the call fed back as the assistant, its result answering it by id, the tool forced', () => {
    expect(body('openai-chat').messages).toEqual([
      { role: 'user', content: 'task' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'save_section', arguments: '{"title":"T","story":"S"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'notes 2' },
    ]);
    expect(body('openai-chat').tool_choice).toEqual({ type: 'function', function: { name: 'save_section' } });
    expect(body('openai-responses').input).toEqual([
      { role: 'user', content: 'task' },
      { type: 'function_call', call_id: 'call_1', name: 'save_section', arguments: '{"title":"T","story":"S"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'notes 2' },
    ]);
    expect(body('anthropic-messages').messages).toEqual([
      { role: 'user', content: 'task' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'save_section', input: { title: 'T', story: 'S' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'notes 2' }] },
    ]);
    expect(body('anthropic-messages').tools[0].name).toBe('save_section');
    expect(body('bedrock-converse-stream').messages).toEqual([
      { role: 'user', content: [{ text: 'task' }] },
      { role: 'assistant', content: [{ toolUse: { toolUseId: 'call_1', name: 'save_section', input: { title: 'T', story: 'S' } } }] },
      { role: 'user', content: [{ toolResult: { toolUseId: 'call_1', content: [{ text: 'notes 2' }] } }] },
    ]);
    expect(body('bedrock-converse-stream').toolConfig.toolChoice).toEqual({ tool: { name: 'save_section' } });
    expect(body('gemini-stream').contents).toEqual([
      { role: 'user', parts: [{ text: 'task' }] },
      { role: 'model', parts: [{ functionCall: { name: 'save_section', args: { title: 'T', story: 'S' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'save_section', response: { content: 'notes 2' } } }] },
    ]);
    expect(body('gemini-stream').generationConfig.maxOutputTokens).toBe(256);
    expect(PROTOCOLS.length).toBe(5);
  });

  it('material: secret per key, the first turn above the 1,024-token caching threshold; only a JSON-object call is fed back', () => {
    const a = buildAgentMaterial('slot\u0000aaaa');
    const b = buildAgentMaterial('slot\u0000bbbb');
    expect(a.task).not.toBe(b.task);
    expect(a.toolResults[0]).not.toBe(b.toolResults[0]);
    const taskTokens = encodeO200k(a.task).length;
    expect(taskTokens).toBeGreaterThan(1_024);
    expect(Math.abs(taskTokens - 1_100)).toBeLessThanOrEqual(110);
    for (const r of a.toolResults) expect(Math.abs(encodeO200k(r).length - 300)).toBeLessThanOrEqual(30);
    const ok = { outcome: 'success' as const, toolCalls: [{ id: null, name: null, arguments: '{"title":"x","story":"y"}' }] };
    expect(callToFeedBack(ok, 2)).toEqual({ id: 'call_2', name: 'save_section', arguments: '{"title":"x","story":"y"}' });
    expect(callToFeedBack({ outcome: 'success', toolCalls: [{ id: 'c', name: 'save_section', arguments: '{"title":"x"' }] }, 1)).toBeNull();
    expect(callToFeedBack({ outcome: 'success', toolCalls: [{ id: 'c', name: 'save_section', arguments: '[1]' }] }, 1)).toBeNull();
    expect(callToFeedBack({ outcome: 'error', toolCalls: ok.toolCalls }, 1)).toBeNull();
  });
});
