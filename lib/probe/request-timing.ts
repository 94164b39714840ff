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
 *
 * Read stamps (decision 150): undici (the package, 7.x; Node 20's bundled copy does not publish
 * it) also publishes `undici:request:bodyChunkReceived` synchronously inside the socket's data
 * callback, once per body chunk, before the chunk enters fetch's web stream. The subscriber does
 * only this on that path: one performance.now() and the running byte count, pushed into two
 * arrays. The probe later gives every byte it reads from the web stream the arrival time of the
 * read that delivered it, so neither the web stream, nor parsing, nor anything else the process
 * does after the read can move a timestamp. Each stamp also records how late it may have been
 * (./stamp-lateness.ts): the measurement's error bound (decision 180).
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import { randomUUID } from 'node:crypto';
import { checkpointNow, holdLatenessEvidence, measureStartSlackMs, releaseLatenessEvidence } from './stamp-lateness';

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
  /** performance.now() when the response head was parsed (undici:request:headers), null if unknown */
  headersAt: number | null;
  /**
   * Arrival of each body chunk of the current request (undici 7 only): `readEnds[i]` is the body
   * byte count after chunk i, `readStamps[i]` its performance.now() arrival. Reset when the tag
   * is sent again (a redirect hop, a retry), whose earlier request then no longer counts. Empty
   * with a fetch that does not publish body chunks.
   */
  readEnds: number[];
  readStamps: number[];
  /**
   * How late each read stamp may have been, ms (`readLateness[i]` for `readStamps[i]`; Infinity when
   * unknown), from this thread's evidence (./stamp-lateness.ts, decision 180).
   */
  readLateness: number[];
  /**
   * Stamps taken on the reader's clock (fetches that publish no reads, end of body): performance.now()
   * value → its lateness bound, ms. Filled by ./stamped-read.ts.
   */
  readerLateness: Map<number, number>;
  /**
   * Request-start stamp → end of the synchronous write that follows it (a microtask after the
   * sendHeaders message), ms: how early request start may be. Null until sent.
   */
  startSlackMs: number | null;
  /** stop tracking (always call, in a finally) */
  dispose(): void;
}

interface SendHeadersMessage {
  request?: object;
  headers?: unknown;
  socket?: object;
}

const pending = new Map<string, RequestTiming>();
/** undici Request object → the timing of the probe that sent it (set at sendHeaders). */
const timingByRequest = new WeakMap<object, RequestTiming>();
/**
 * The undici Request of each timing's current hop. A new hop (redirect, or a fetch wrapper that
 * retries with the same tagged headers) unmaps the previous one: its body may still be arriving
 * (a retry that did not cancel it), and its reads would shift every later stamp onto the wrong
 * bytes (a 29 ms TTFT read as 1 ms, read-path-attacks.test.ts).
 */
const currentRequest = new WeakMap<RequestTiming, object>();
/** Body bytes seen so far per timing (kept beside it to keep RequestTiming plain). */
const bodyBytes = new WeakMap<RequestTiming, number>();
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
    const sentAt = performance.now();
    timing.sentAt = sentAt;
    timing.startSlackMs = null;
    // undici writes the request right after publishing, in the same synchronous run: the write is
    // over when this microtask runs (decision 180: request start may be early by at most this).
    queueMicrotask(() => {
      if (timing.sentAt === sentAt) timing.startSlackMs = measureStartSlackMs(sentAt);
    });
    // A new hop (redirect) starts a new body: earlier stamps belonged to the previous response.
    timing.readEnds.length = 0;
    timing.readStamps.length = 0;
    timing.readLateness.length = 0;
    timing.headersAt = null;
    bodyBytes.set(timing, 0);
    const previous = currentRequest.get(timing);
    if (previous) timingByRequest.delete(previous);
    if (m.request) {
      timingByRequest.set(m.request, timing);
      currentRequest.set(timing, m.request);
    }
    if (m.socket) {
      timing.connectMs = usedSockets.has(m.socket) ? 0 : (connectMsBySocket.get(m.socket) ?? null);
      usedSockets.add(m.socket);
    }
  });
  diagnosticsChannel.subscribe('undici:request:headers', (message) => {
    const request = (message as { request?: object }).request;
    const timing = request ? timingByRequest.get(request) : undefined;
    if (timing) timing.headersAt = performance.now();
  });
  // The hot path: a lookup, a clock read, three pushes and one lateness checkpoint (~3 µs).
  diagnosticsChannel.subscribe('undici:request:bodyChunkReceived', (message) => {
    const m = message as { request?: object; chunk?: { length: number } };
    const timing = m.request ? timingByRequest.get(m.request) : undefined;
    if (!timing || !m.chunk) return;
    const end = (bodyBytes.get(timing) ?? 0) + m.chunk.length;
    bodyBytes.set(timing, end);
    const now = performance.now();
    timing.readEnds.push(end);
    timing.readStamps.push(now);
    timing.readLateness.push(checkpointNow(now));
  });
}

/**
 * Starts tracking one request. Add `header` to the request; after headers have been sent
 * (e.g. once fetch resolved) read `sentAt` and `connectMs`. Cheap: one map entry per request and
 * one shared subscription per process.
 */
export function trackRequestTiming(): RequestTiming {
  subscribeOnce();
  holdLatenessEvidence();
  const id = randomUUID();
  let disposed = false;
  const timing: RequestTiming = {
    header: [PROBE_TAG_HEADER, id],
    sentAt: null,
    connectMs: null,
    headersAt: null,
    readEnds: [],
    readStamps: [],
    readLateness: [],
    readerLateness: new Map(),
    startSlackMs: null,
    dispose: () => {
      pending.delete(id);
      if (!disposed) releaseLatenessEvidence();
      disposed = true;
    },
  };
  pending.set(id, timing);
  return timing;
}
