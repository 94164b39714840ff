/**
 * A base URL of the right kind for building a request of `protocol` in adapter tests: Bedrock's
 * regional runtime host, Gemini's v1beta API, otherwise an example OpenAI-style /v1 base. The
 * adapters read the host (Bedrock signs it) and path prefix from it; nothing is sent.
 */
import type { Protocol } from '../types';

export function adapterTestUrl(protocol: Protocol): string {
  return protocol === 'bedrock-converse-stream'
    ? 'https://bedrock-runtime.us-east-1.amazonaws.com'
    : protocol === 'gemini-stream'
      ? 'https://generativelanguage.googleapis.com/v1beta'
      : 'https://api.example.com/v1';
}
