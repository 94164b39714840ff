import { buildProbeResult } from '../build-probe-result';
import { parseStream } from '../parse-stream';
import type { ProbeResult, Protocol } from '../types';

/**
 * The probe result of a whole recorded response body of `protocol` (text, or bytes such as Bedrock
 * frames) read in one chunk through the real decoder, at a clock fixed at 10 ms: HTTP 200, TTFB 0,
 * no connect time, not aborted. For tests of what the adapters read, not of timing.
 */
export async function parseWholeBody(protocol: Protocol, body: string | Uint8Array): Promise<ProbeResult> {
  async function* chunks() {
    yield typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  }
  const parsed = await parseStream(protocol, chunks(), () => 10);
  return buildProbeResult(parsed, { protocol, httpStatus: 200, ttfbMs: 0, connectMs: null, abort: null });
}

/** An SSE body: one `event: <type>` line (none for a null type) and one `data:` line of the JSON per event. */
export function sseBody(events: Array<[string | null, unknown]>): string {
  return events.map(([type, o]) => `${type ? `event: ${type}\n` : ''}data: ${JSON.stringify(o)}\n\n`).join('');
}

/** An sseBody event of the protocols whose data repeats its event name as `type` (Messages, Responses): `[type, { type, ...fields }]`. */
export function typedEvent(type: string, fields: object = {}): [string, unknown] {
  return [type, { type, ...fields }];
}
