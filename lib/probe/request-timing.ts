/**
 * Finds the moment a request is actually written, so that request start is "just before the
 * request is written on a connection that is already open" (DESIGN.md §1), not the moment fetch()
 * was called: fetch's first call in a process spends ~30 ms loading itself, and a new connection
 * spends DNS + TCP + TLS, neither of which is the server's time to first token.
 *
 * How: undici (Node's built-in fetch and the undici package, which the SSRF-guarded fetch uses)
 * publishes `undici:client:sendHeaders` on node:diagnostics_channel right before writing a
 * request's headers, and `undici:client:beforeConnect` / `undici:client:connected` around socket
 * set-up. The probe finds its own request among concurrent ones WITHOUT marking it (issue 20: a
 * probe must not be told from a user by anything it sends): it calls fetch inside
 * `timing.run(...)`, an AsyncLocalStorage context, and undici publishes `undici:request:create`
 * synchronously from the Request constructor, which runs in the async context of the fetch() call
 * that led to it (undici's fetch reaches its dispatcher through awaits and microtasks, both of
 * which carry the context). The subscriber maps that Request object to the timing; every later
 * message names the Request object, so the mapping holds whatever context the socket callbacks run
 * in. A redirect hop or a retry by a fetch wrapper creates a new Request in the same context and
 * is mapped the same way. With a fetch that is not undici nothing is published and the caller
 * keeps its own start time (the fetch() call) and a null connectMs.
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
import { AsyncLocalStorage } from 'node:async_hooks';
import { drainLateness, newDrainState, type DrainState } from './drain-bound';
import { checkpointNow, currentCheckpointRun, holdLatenessEvidence, measureStartSlackMs, releaseLatenessEvidence } from './stamp-lateness';

/** What was observed about one request's transmission. performance.now() times. */
export interface RequestTiming {
  /**
   * Runs `fn` (the fetch call) so that every undici Request it creates is tracked by this timing.
   * Nothing is added to the request.
   */
  run<T>(fn: () => T): T;
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

/** The timing whose fetch is running in the current async context. */
const context = new AsyncLocalStorage<RequestTiming>();
/** Timings not yet disposed. */
const pending = new Set<RequestTiming>();
/** undici Request object → the timing of the probe that created it (set at undici:request:create). */
const timingByRequest = new WeakMap<object, RequestTiming>();
/**
 * The undici Request of each timing's current hop. A new hop (redirect, or a fetch wrapper that
 * retries inside the probe's fetch call) unmaps the previous one: its body may still be arriving
 * (a retry that did not cancel it), and its reads would shift every later stamp onto the wrong
 * bytes (a 29 ms TTFT read as 1 ms, read-path-attacks.test.ts).
 */
const currentRequest = new WeakMap<RequestTiming, object>();
/** Body bytes seen so far per timing (kept beside it to keep RequestTiming plain). */
const bodyBytes = new WeakMap<RequestTiming, number>();
/** Drain-bound state per timing (./drain-bound.ts) and the socket its current hop uses. */
const drainByTiming = new WeakMap<RequestTiming, DrainState>();
const socketByTiming = new WeakMap<RequestTiming, object>();
const connectStartByOrigin = new Map<string, number[]>();
const connectMsBySocket = new WeakMap<object, number>();
const usedSockets = new WeakSet<object>();
let subscribed = false;

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
  diagnosticsChannel.subscribe('undici:request:create', (message) => {
    const timing = context.getStore();
    const request = (message as { request?: object }).request;
    if (timing && request && pending.has(timing)) timingByRequest.set(request, timing);
  });
  diagnosticsChannel.subscribe('undici:client:sendHeaders', (message) => {
    if (pending.size === 0) return;
    const m = message as SendHeadersMessage;
    const timing = m.request ? timingByRequest.get(m.request) : undefined;
    if (!timing || !pending.has(timing)) return;
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
    drainByTiming.set(timing, newDrainState());
    if (m.socket) socketByTiming.set(timing, m.socket);
    else socketByTiming.delete(timing);
    const previous = currentRequest.get(timing);
    if (previous && previous !== m.request) timingByRequest.delete(previous);
    if (m.request) currentRequest.set(timing, m.request);
    if (m.socket) {
      timing.connectMs = usedSockets.has(m.socket) ? 0 : (connectMsBySocket.get(m.socket) ?? null);
      usedSockets.add(m.socket);
    }
  });
  diagnosticsChannel.subscribe('undici:request:headers', (message) => {
    const request = (message as { request?: object }).request;
    const timing = request ? timingByRequest.get(request) : undefined;
    if (!timing) return;
    timing.headersAt = performance.now();
    // The head's read is a read of this socket too: the first body read after it gets its floor.
    noteRead(timing, timing.headersAt, 0, checkpointNow(timing.headersAt));
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
    timing.readLateness.push(noteRead(timing, now, m.chunk.length, checkpointNow(now)));
  });
}

/**
 * The lateness bound of a stamp of `timing`'s response: the smaller of the sleep bound and the
 * drain bound (./drain-bound.ts). At the first stamp of each read, a microtask checks after the
 * read whether undici's parser paused; if so every later stamp of this hop is unknown.
 */
function noteRead(timing: RequestTiming, nowMs: number, bytes: number, sleepBoundMs: number): number {
  let state = drainByTiming.get(timing);
  if (!state) {
    state = newDrainState();
    drainByTiming.set(timing, state);
  }
  const { latenessMs, newRead } = drainLateness(state, currentCheckpointRun(), nowMs, bytes, sleepBoundMs);
  if (newRead) {
    const s = state;
    const socket = socketByTiming.get(timing);
    queueMicrotask(() => {
      const paused = parserPaused(socket);
      if (paused === null) s.noDrain = true;
      else if (paused) s.broken = true;
    });
  }
  return latenessMs;
}

/** undici's parser symbol once a socket has shown it; a socket without one (HTTP/2) never caches a miss. */
let parserSymbol: symbol | undefined;

/**
 * Whether undici's HTTP/1 parser of `socket` is paused (the body consumer fell behind, decision
 * 183); null when that cannot be seen (another undici, HTTP/2, no socket).
 */
function parserPaused(socket: object | undefined): boolean | null {
  if (!socket) return null;
  const key = parserSymbol ?? Object.getOwnPropertySymbols(socket).find((x) => x.description === 'parser');
  if (key === undefined) return null;
  parserSymbol = key;
  const parser = (socket as Record<symbol, { paused?: unknown } | undefined>)[key];
  return typeof parser?.paused === 'boolean' ? parser.paused : null;
}

/**
 * Starts tracking one request. Call fetch inside `timing.run(() => fetch(...))`; after headers
 * have been sent (e.g. once fetch resolved) read `sentAt` and `connectMs`. Cheap: one set entry
 * per request and one shared subscription per process.
 */
export function trackRequestTiming(): RequestTiming {
  subscribeOnce();
  holdLatenessEvidence();
  let disposed = false;
  const timing: RequestTiming = {
    run: (fn) => context.run(timing, fn),
    sentAt: null,
    connectMs: null,
    headersAt: null,
    readEnds: [],
    readStamps: [],
    readLateness: [],
    readerLateness: new Map(),
    startSlackMs: null,
    dispose: () => {
      pending.delete(timing);
      if (!disposed) releaseLatenessEvidence();
      disposed = true;
    },
  };
  pending.add(timing);
  return timing;
}
