/**
 * The headers a probe sends besides the adapter's own (auth, content type, protocol version): what
 * the protocol's official JavaScript SDK sends on Node, so that a probe's request cannot be told
 * from an ordinary application's by its headers (issue 20 item 1, decision 174). Everything else
 * (accept-encoding `gzip, deflate`, accept-language, sec-fetch-mode, connection) is left to fetch,
 * as the SDKs leave it. Nothing here names Tokenpace; an operator may add a header per endpoint
 * (`endpoints.probe_headers`) where a provider's terms ask probes to identify themselves.
 *
 * Sources (versions current in late 2026):
 * - OpenAI and Anthropic (Stainless SDKs, `openai-node` / `anthropic-sdk-typescript`,
 *   src/internal/detect-platform.ts and the client's buildHeaders): `User-Agent: ${Client}/JS ${v}`,
 *   `Accept: application/json`, `X-Stainless-Lang: js`, `-Package-Version`, `-OS`, `-Arch`,
 *   `-Runtime: node`, `-Runtime-Version: process.version`, `-Retry-Count: 0` on a first attempt and
 *   `-Timeout` in seconds (both SDKs default to 600 s).
 * - AWS SDK v3 (Bedrock Runtime): its user agent, `amz-sdk-invocation-id` (a fresh UUID per
 *   call) and `amz-sdk-request: attempt=1; max=3`; no `x-amz-*` header is added here, so a SigV4
 *   signature computed by the adapter stays valid.
 * - Google GenAI SDK: `x-goog-api-client` equal to its user agent.
 */
import { randomUUID } from 'node:crypto';
import type { Protocol } from './types';

/** The SDK user agent per protocol. */
export const CLIENT_USER_AGENTS: Record<Protocol, string> = {
  'openai-chat': 'OpenAI/JS 6.9.1',
  'openai-responses': 'OpenAI/JS 6.9.1',
  'anthropic-messages': 'Anthropic/JS 0.69.0',
  'bedrock-converse-stream': 'aws-sdk-js/3.930.0 ua/2.1 os/linux lang/js md/nodejs#20.20.0 api/bedrock-runtime#3.930.0',
  'gemini-stream': 'google-genai-sdk/1.30.0 gl-node/v20.20.0',
};

/** Stainless platform headers (OpenAI and Anthropic SDKs on Node). */
function stainlessHeaders(packageVersion: string): Record<string, string> {
  return {
    accept: 'application/json',
    'x-stainless-lang': 'js',
    'x-stainless-package-version': packageVersion,
    'x-stainless-os': 'Linux',
    'x-stainless-arch': process.arch === 'arm64' ? 'arm64' : 'x64',
    'x-stainless-runtime': 'node',
    'x-stainless-runtime-version': process.version,
    'x-stainless-retry-count': '0',
    'x-stainless-timeout': '600',
  };
}

/**
 * The headers of one request of `protocol`: the SDK's set (lower-case names; a fresh invocation id
 * for Bedrock) under the adapter's `adapterHeaders` (auth, content type, protocol version win),
 * except `accept`, which the Stainless SDKs send as `application/json` even for a stream (the
 * `stream: true` body field asks for SSE), so a probe claiming to be one sends that too.
 */
export function clientHeaders(protocol: Protocol, adapterHeaders: Record<string, string> = {}): Record<string, string> {
  const sdk = sdkHeaders(protocol);
  return { ...sdk, ...adapterHeaders, ...(sdk.accept ? { accept: sdk.accept } : {}) };
}

function sdkHeaders(protocol: Protocol): Record<string, string> {
  const ua = CLIENT_USER_AGENTS[protocol];
  switch (protocol) {
    case 'openai-chat':
    case 'openai-responses':
      return { 'user-agent': ua, ...stainlessHeaders('6.9.1') };
    case 'anthropic-messages':
      return { 'user-agent': ua, ...stainlessHeaders('0.69.0') };
    case 'bedrock-converse-stream':
      return { 'user-agent': ua, 'amz-sdk-invocation-id': randomUUID(), 'amz-sdk-request': 'attempt=1; max=3' };
    case 'gemini-stream':
      return { 'user-agent': ua, 'x-goog-api-client': ua };
  }
}
