/**
 * The probe request tests send to a local reference server: OpenAI chat protocol, the reference
 * model id, no key, a one-word prompt, and generous deadlines (ms) for a loaded machine.
 */
import type { FetchLike, ProbeRequest } from '../../probe/types';
import { REFERENCE_MODEL_ID } from '../reference-server';

export function referenceRequest(
  url: string,
  maxOutputTokens: number,
  fetch: FetchLike = globalThis.fetch,
  deadlines: Partial<ProbeRequest['deadlines']> = {},
): ProbeRequest {
  return {
    protocol: 'openai-chat',
    url,
    model: REFERENCE_MODEL_ID,
    apiKey: null,
    prompt: 'hi',
    maxOutputTokens,
    deadlines: { ttftMs: 10_000, idleMs: 10_000, totalMs: 30_000, maxBytes: 1 << 24, ...deadlines },
    fetch,
  };
}
