/**
 * The adapter registry: one adapter per wire protocol (see ./adapter.ts for the interface).
 */
import { PROTOCOLS, type Protocol } from '../types';
import type { ProtocolAdapter } from './adapter';
import { anthropicMessagesAdapter } from './anthropic-messages';
import { bedrockConverseStreamAdapter } from './bedrock-converse-stream';
import { geminiStreamAdapter } from './gemini-stream';
import { openAiChatAdapter } from './openai-chat';
import { openAiResponsesAdapter } from './openai-responses';

const ADAPTERS: Record<Protocol, ProtocolAdapter> = {
  'openai-chat': openAiChatAdapter,
  'openai-responses': openAiResponsesAdapter,
  'anthropic-messages': anthropicMessagesAdapter,
  'bedrock-converse-stream': bedrockConverseStreamAdapter,
  'gemini-stream': geminiStreamAdapter,
};

/** True when `value` names a protocol the probe speaks. */
export function isProtocol(value: string): value is Protocol {
  return (PROTOCOLS as readonly string[]).includes(value);
}

/**
 * The adapter of `protocol`. Throws TypeError for an unknown protocol (a caller bug: protocols
 * come from the catalog's enum or the CLI's validated flag).
 */
export function getAdapter(protocol: Protocol): ProtocolAdapter {
  const adapter = ADAPTERS[protocol];
  if (!adapter) throw new TypeError(`unknown protocol: ${String(protocol)}`);
  return adapter;
}
