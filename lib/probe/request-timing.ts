/**
 * Finds the moment a request is actually written, so that request start is "just before the
 * request is written on a connection that is already open" (DESIGN.md §1), not the moment fetch()
 * was called: fetch's first call in a process spends ~30 ms loading itself, and a new connection
 * spends DNS + TCP + TLS, neither of which is the server's time to first token.
 *
 * How: undici (Node's built-in fetch and the undici package, which the SSRF-guarded fetch uses)
 * publishes `undici:client:sendHeaders` on node:diagnostics_channel right before writing a
 * request's headers, and `undici:client:beforeConnect` / `undici:client:connected` around socket
 * set-up. The probe tags its request with a unique `x-tokenpace-probe` header and finds its own
 * message among concurrent ones by it. With a fetch that is not undici nothing is published and
 * the caller keeps its own start time (the fetch() call) and a null connectMs.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import { randomUUID } from 'node:crypto';

/** Header carrying the probe's tag (harmless to providers; never contains secrets). */
export const PROBE_TAG_HEADER = 'x-tokenpace-probe';

/** What was observed about one request's transmission. performance.now() times. */
export interface RequestTiming {
  /** header name and value to add to the request */
  header: [string, string];
  /** performance.now() when the request headers were written, null until then / if not undici */
  sentAt: number | null;
  /** ms spent opening the connection this request used; 0 for a reused connection; null if unknown */
  connectMs: number | null;
  /** stop tracking (always call, in a finally) */
  dispose(): void;
}

interface SendHeadersMessage {
  headers?: unknown;
  socket?: object;
}

const pending = new Map<string, RequestTiming>();
const connectStartByOrigin = new Map<string, number[]>();
const connectMsBySocket = new WeakMap<object, number>();
const usedSockets = new WeakSet<object>();
let subscribed = false;
const TAG_PATTERN = new RegExp(`${PROBE_TAG_HEADER}: ([0-9a-f-]{36})\\r\\n`, 'i');

function originKey(params: unknown): string {
  const p = (params ?? {}) as { hostname?: unknown; port?: unknown; protocol?: unknown };
  return `${String(p.protocol)}//${String(p.hostname)}:${String(p.port)}`;
}

function subscribeOnce(): void {
  if (subscribed) return;
  subscribed = true;
  diagnosticsChannel.subscribe('undici:client:beforeConnect', (message) => {
    const key = originKey((message as { connectParams?: unknown }).connectParams);
    const starts = connectStartByOrigin.get(key) ?? [];
    starts.push(performance.now());
    connectStartByOrigin.set(key, starts);
  });
  diagnosticsChannel.subscribe('undici:client:connected', (message) => {
    const m = message as { connectParams?: unknown; socket?: object };
    const key = originKey(m.connectParams);
    const starts = connectStartByOrigin.get(key);
    const start = starts?.shift();
    if (starts && starts.length === 0) connectStartByOrigin.delete(key);
    if (start !== undefined && m.socket) connectMsBySocket.set(m.socket, performance.now() - start);
  });
  diagnosticsChannel.subscribe('undici:client:connectError', (message) => {
    const key = originKey((message as { connectParams?: unknown }).connectParams);
    connectStartByOrigin.get(key)?.shift();
  });
  diagnosticsChannel.subscribe('undici:client:sendHeaders', (message) => {
    if (pending.size === 0) return;
    const m = message as SendHeadersMessage;
    if (typeof m.headers !== 'string') return;
    const match = TAG_PATTERN.exec(m.headers);
    const timing = match ? pending.get(match[1]!) : undefined;
    if (!timing) return;
    timing.sentAt = performance.now();
    if (m.socket) {
      timing.connectMs = usedSockets.has(m.socket) ? 0 : (connectMsBySocket.get(m.socket) ?? null);
      usedSockets.add(m.socket);
    }
  });
}

/**
 * Starts tracking one request. Add `header` to the request; after headers have been sent
 * (e.g. once fetch resolved) read `sentAt` and `connectMs`. Cheap: one map entry per request and
 * one shared subscription per process.
 */
export function trackRequestTiming(): RequestTiming {
  subscribeOnce();
  const id = randomUUID();
  const timing: RequestTiming = {
    header: [PROBE_TAG_HEADER, id],
    sentAt: null,
    connectMs: null,
    dispose: () => {
      pending.delete(id);
    },
  };
  pending.set(id, timing);
  return timing;
}
