/**
 * The probe request the benches send to a local reference server: Chat Completions, the reference
 * model, no key, prompt "bench", `maxTokens` output tokens, 30 s TTFT and idle deadlines, 120 s in
 * all, and at most `maxBytes` bytes of body, through `fetch` (the production SSRF-guarded fetch
 * with loopback allowed, createGuardedFetch({ allowPrivate: true })).
 */
import type { FetchLike, ProbeRequest } from '../../lib/probe/types';
import { REFERENCE_MODEL_ID } from '../../lib/reference-server/reference-server';

export function referenceProbeRequest(fetch: FetchLike, url: string, maxTokens: number, maxBytes: number): ProbeRequest {
  return {
    protocol: 'openai-chat',
    url,
    model: REFERENCE_MODEL_ID,
    apiKey: null,
    prompt: 'bench',
    maxOutputTokens: maxTokens,
    deadlines: { ttftMs: 30_000, idleMs: 30_000, totalMs: 120_000, maxBytes },
    fetch,
  };
}
