/**
 * A local OpenAI-compatible streaming server with an exactly known speed: the calibration target
 * for the probe (tests, `npm run bench:probe`, the calibration endpoint of a running instance).
 *
 * `POST /v1/chat/completions` (also `/chat/completions`) streams SSE: a role chunk at once, the
 * first content chunk `ttftMs` after the request was read, then chunks of `tokensPerChunk` tokens
 * such that the tokens AFTER the first chunk arrive at exactly `tps` tokens/s — the definition of
 * output speed (Artificial Analysis; 1/TPOT of vLLM bench_serving) — so a correct probe measures
 * `tps` and `ttftMs`. Chunk j is due at ttft + (tokens after the first chunk up to j) / tps,
 * scheduled by absolute time from the request, so timer lateness never accumulates. Every token is
 * one o200k token (./reference-words.ts), starting at a point of the word sequence chosen by a hash
 * of the prompt, so different prompts get different answers (the same answer to different prompts
 * is `repeated_answer`, decision 171). Then a finish chunk (`length` when the request's
 * max_tokens cut the answer, else `stop`), a usage chunk (choices: []) with completion_tokens,
 * and `data: [DONE]`. `GET /v1/models` lists the one model.
 *
 * Responses API variant (decision 192): `POST /v1/responses` (also `/responses`) streams the same
 * tokens on the same schedule as Responses events: response.created, response.in_progress,
 * output_item.added and content_part.added at once, one `response.output_text.delta` per content
 * chunk, then output_text.done, content_part.done, output_item.done and `response.completed`
 * (`response.incomplete` with reason max_output_tokens when the request's max_output_tokens cut
 * the answer) carrying usage.output_tokens; every event numbered by sequence_number; no [DONE].
 *
 * One scheduler loop serves every open stream: it sleeps with setTimeout until ~1 ms before the
 * next due chunk, then spins with setImmediate, writing all chunks that are due (several due
 * chunks of one stream go out in one write; the SSE events stay separate).
 *
 * Timing rule under load: chunks after the first are due from the moment the first content chunk
 * was ACTUALLY written (not from when it was scheduled), so a first chunk written late (the loop
 * was busy with other streams) never makes the rest of the stream burst to catch up: each stream's
 * tokens follow its rate from its own first token, which is what a probe measures.
 *
 * Throughput model (`capacityTps`): like a real engine sharing its decode capacity, each new
 * stream is given the rate min(tps, capacityTps ÷ open streams), counting itself and every stream
 * already open (waiting for or sending tokens), fixed for that stream's life. N streams held open
 * therefore run at min(tps, C/N) each and the server at min(N·tps, C) in total: a known true
 * curve for sweeps (lib/sweep). Without `capacityTps` every stream runs at `tps`.
 *
 * Delivery reports (decision 182): every stream's real write times are kept (the last 512) and
 * served at `GET /v1/tokenpace/deliveries/{id}`, the id being the `x-tokenpace-stream-id` header,
 * so that calibration can compare the probe with what was delivered and the server with its
 * configuration, apart. `slowdownFactor` makes a deliberately late server for tests.
 *
 * Prefix cache (`prefixCache`, issue 25, decision 260): like vLLM's automatic prefix caching, the
 * prompt (o200k tokens of the messages' text) is cut into blocks of `blockTokens` and each block is
 * keyed by a hash chained over all blocks before it; a request whose leading blocks were seen
 * before finds them cached. A hit is served with TTFT `hitTtftMs` instead of `ttftMs` and reports
 * its cached tokens (whole matching blocks × blockTokens) in `usage.prompt_tokens_details.cached_tokens`
 * (Chat) or `usage.input_tokens_details.cached_tokens` (Responses), `prompt_tokens` / `input_tokens`
 * beside it (the o200k count of the whole conversation text, also without a cache: decision 292). `hitShare` < 1 models eviction and replicas without the prefix: of the requests whose
 * prefix is cached, exactly that share is served as hits (error diffusion, deterministic: over n
 * such requests ⌊n × hitShare⌋ or one more hit), the rest as misses (0 cached, full TTFT). The
 * cache keeps the newest `maxBlocks` block keys. Without `prefixCache` nothing is cached and Chat
 * usage carries no details, only the prompt's token count.
 * The prompt is the whole conversation ({@link conversationText}: every message's text, tool-call
 * arguments and tool results in order), so an agent conversation's turn finds the turns before it
 * cached (decision 267). `ttlMs` gives blocks a lifetime since their last use, like Anthropic's
 * 5-minute cache refreshed on each hit (decision 268): a block is still cached when at most
 * `ttlMs` passed since it was last looked up, on the clock `now` (default performance.now; tests
 * pass their own, so a lifetime of minutes is tested without waiting minutes).
 *
 * Structured output (`structuredTps`, issue 25 item 2): a Chat request with `response_format`
 * json_schema, or a forced tool (`tool_choice` naming a function), and a Responses request with
 * `text.format` json_schema, decode at `structuredTps` instead of `tps` (the configured truth of
 * the structured-output penalty, structuredTps ÷ tps). The answer is a JSON object
 * `{"title":"A story","story":"<reference words>"}` valid against the probes' story schema, every
 * streamed token one o200k token (the opening as its o200k tokens, `"}` the last), so the
 * reported and the o200k counts agree exactly. A forced tool
 * call streams the same JSON as `delta.tool_calls[0].function.arguments` fragments and finishes
 * with `tool_calls`; on the Responses wire (`tool_choice: {type: "function", name}`) as one
 * `function_call` item whose arguments come as `response.function_call_arguments.delta` events
 * (decision 267: an agent turn's call can be fed back). Omitted: structured requests decode at `tps`.
 *
 * Service tiers (`serviceTiers`, issue 25 item 4, decision 264): a Chat or Responses request whose
 * `service_tier` names a configured tier decodes at that tier's `tps` instead of the server's;
 * `slowShare` of the tier's streams (error diffusion in arrival order, deterministic: over n
 * streams ⌊n × slowShare⌋ or one more) decode at `slowTps` instead, the configured truth of how
 * many requests a tier objective's threshold misses. An absent or unconfigured tier decodes at
 * `tps`. Each stream's record names the tier it was asked for (`serviceTier`). A request that asks
 * for a tier is answered with the tier that served it, as OpenAI does (decision 293): Chat's final
 * usage chunk and the Responses response objects carry `service_tier`, the asked tier when it is
 * configured, else `default` (`auto` and an unconfigured tier are served at the default rate, like
 * a key without that tier's access); a request that asks for none gets no `service_tier` (the
 * former output).
 *
 * Write log (`recordWrites`): the server's own record of each stream (arrival, assigned rate, time
 * and tokens of every content write), the ground truth that sweep tests compare with. Times are
 * epoch ms from the monotonic clock (performance.timeOrigin + performance.now()).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createHash } from 'node:crypto';
import { answerFidelityTokens } from '../fidelity/answer-task';
import { countO200kTokens, decodeO200k, encodeO200k } from '../tokens/o200k';

/** The opening of a structured answer as o200k token strings (ASCII: each decodes whole). */
const JSON_OPENING_TOKENS: readonly string[] = encodeO200k('{"title":"A story","story":"').map((t) => decodeO200k([t]));
import { referenceWord } from './reference-words';

/** Options of {@link startReferenceServer}. */
export interface ReferenceServerOptions {
  /** TCP port; 0 for an ephemeral one. */
  port: number;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Output speed after the first chunk, tokens/s (> 0). */
  tps: number;
  /** Request read → first content chunk, ms (≥ 0). */
  ttftMs: number;
  /** Tokens per content chunk (integer ≥ 1, default 1). */
  tokensPerChunk?: number;
  /** Tokens per answer unless the request's max_tokens is smaller (integer ≥ 1, default 256). */
  outputTokens?: number;
  /**
   * Total decode capacity, tokens/s (> 0): each new stream gets min(tps, capacityTps ÷ open
   * streams). Omitted: no sharing, every stream at `tps`.
   */
  capacityTps?: number;
  /** Keep a write log of every stream (see {@link ReferenceServer.writeLog}); default false. */
  recordWrites?: boolean;
  /**
   * Admission limit: a request arriving while this many streams are open is refused with HTTP 429
   * and `Retry-After: 1`, like an engine with a full queue or a rate-limited API. Omitted: no limit.
   */
  maxOpenStreams?: number;
  /**
   * A deliberately slowed server (tests of calibration, decision 182): chunks after the first come
   * this many times later than the configured rate says (integer or not, ≥ 1, default 1), while the
   * server still claims the configured rate. Its delivery report shows the truth.
   */
  slowdownFactor?: number;
  /** Decode rate of structured-output and forced-tool requests, tokens/s (> 0; see the module doc); omitted: `tps`. */
  structuredTps?: number;
  /** A prefix cache (see the module doc); omitted: no cache. */
  prefixCache?: PrefixCacheOptions;
  /** Service tiers by the request's `service_tier` value (see the module doc); omitted: every request at `tps`. */
  serviceTiers?: Record<string, ServiceTierOptions>;
}

/** One tier of the reference server: the configured truth of a tier objective's attainment. */
export interface ServiceTierOptions {
  /** decode rate of the tier's streams, tokens/s (> 0) */
  tps: number;
  /** share of the tier's streams decoded at `slowTps` instead, 0..1 (default 0) */
  slowShare?: number;
  /** decode rate of the slow share, tokens/s (> 0; required when slowShare > 0) */
  slowTps?: number;
}

/** The reference server's prefix cache: the configured truth of the prompt-cache workloads. */
export interface PrefixCacheOptions {
  /** TTFT of a cache hit, ms (≥ 0; the truth of warm TTFT) */
  hitTtftMs: number;
  /** share of requests with a cached prefix that are served as hits, 0..1 (default 1) */
  hitShare?: number;
  /** tokens per cache block (integer ≥ 1, default 128: OpenAI's cache increment) */
  blockTokens?: number;
  /** block keys kept, newest first (integer ≥ 1, default 65,536) */
  maxBlocks?: number;
  /** lifetime of a block since its last lookup, ms (> 0); omitted: blocks never expire */
  ttlMs?: number;
  /** the cache's clock, ms (default performance.now) */
  now?: () => number;
}

/**
 * What the server really sent for one stream (decision 182), served at
 * `GET /v1/tokenpace/deliveries/{id}` (id = the completion id, also the `x-tokenpace-stream-id`
 * response header) for the last {@link DELIVERY_LOG_SIZE} streams: the truth a calibration probe is
 * compared with, apart from what the server was configured to do.
 */
export interface DeliveryReport {
  id: string;
  /** configured rate and TTFT */
  configuredTps: number;
  configuredTtftMs: number;
  /** first content write − request read, ms (the server's own clock) */
  deliveredTtftMs: number | null;
  /**
   * When the server had read the request and made its first content write, epoch ms on the
   * monotonic clock (µs resolution): a probe on this host lines them up with its own request-start
   * stamp (decision 302); null before a first write.
   */
  readAtEpochMs: number;
  firstWriteAtEpochMs: number | null;
  /**
   * When the first content write's call returned, epoch ms: the latest it can have gone out
   * (decision 305); null before a first write.
   */
  firstWriteDoneAtEpochMs: number | null;
  /**
   * The slowest and fastest speed the write intervals allow (measureRecordTpsRange), tokens/s;
   * null with < 2 writes. The fastest is null when the intervals overlap (no lower span bound).
   */
  deliveredTpsMin: number | null;
  deliveredTpsMax: number | null;
  /** tokens after the first content write ÷ first-to-last content write, tokens/s (measureRecordTps) */
  deliveredTps: number | null;
  /** content writes and tokens written */
  writes: number;
  tokens: number;
  completed: boolean;
}

/** Streams whose delivery report the server keeps (oldest dropped first). */
export const DELIVERY_LOG_SIZE = 512;
/**
 * The speed a stream can have been delivered at, given each write's interval [writeAt,
 * writeDoneAt] (decision 305): tokens after the first write ÷ the longest and the shortest span
 * the writes allow, tokens/s; null with < 2 writes or without the done stamps (a record kept
 * before them).
 */
export function measureRecordTpsRange(record: ReferenceStreamRecord): { min: number; max: number } | null {
  const n = record.writeAt.length;
  if (n < 2 || record.writeDoneAt.length !== n || Number.isNaN(record.writeDoneAt[0]) || Number.isNaN(record.writeDoneAt[n - 1])) return null;
  let tokens = 0;
  for (let i = 1; i < n; i++) tokens += record.writeTokens[i]!;
  const longest = record.writeDoneAt[n - 1]! - record.writeAt[0]!;
  const shortest = record.writeAt[n - 1]! - record.writeDoneAt[0]!;
  if (longest <= 0) return null;
  return { min: (tokens / longest) * 1000, max: shortest > 0 ? (tokens / shortest) * 1000 : Number.POSITIVE_INFINITY };
}

/** Response header naming the stream's id (the key of its delivery report). */
export const STREAM_ID_HEADER = 'x-tokenpace-stream-id';

/**
 * The server's own record of one stream. Times are epoch ms on the monotonic clock
 * (performance.timeOrigin + performance.now()).
 */
export interface ReferenceStreamRecord {
  /** the completion id sent in every chunk */
  id: string;
  /** request body read (the stream opened) */
  openedAt: number;
  /** streams open when this one arrived, itself included */
  openStreams: number;
  /** rate assigned to this stream after its first chunk, tokens/s */
  assignedTps: number;
  /**
   * time of each content write (several due chunks may share one write): taken when the write
   * was found due, before its bytes were built and handed to the socket — the earliest it can
   * have gone out
   */
  writeAt: number[];
  /**
   * time each content write's callback ran (after its bytes went to the kernel; on loopback, to
   * the reader's socket buffer), NaN before it: the latest it can have gone out. [writeAt, writeDoneAt] is the
   * interval the truth lies in; a server preempted between the two shows it (decision 305).
   */
  writeDoneAt: number[];
  /** tokens carried by each content write */
  writeTokens: number[];
  /** true once the final chunk was written; false while streaming or when the client left */
  completed: boolean;
  /** the request's `service_tier` when it was a string, else null */
  serviceTier?: string | null;
  /** SHA-256 (hex) of the request's conversation text: pairs a probe result with its record (tests, calibration) */
  promptSha256: string;
}

/** A running reference server. */
export interface ReferenceServer {
  /** OpenAI base URL, e.g. http://127.0.0.1:8787/v1 (append /chat/completions, or /responses for the Responses API) */
  url: string;
  port: number;
  /** Stops accepting, ends open streams, resolves when closed. */
  close(): Promise<void>;
  /** Records of every stream since start or the last clear (empty unless `recordWrites`). */
  writeLog(): readonly ReferenceStreamRecord[];
  /** Forgets the write log. */
  clearWriteLog(): void;
  /** Streams open now. */
  openStreams(): number;
}

/**
 * Per-stream speed from a write record: tokens after the first content write ÷ time from the first
 * to the last content write (the definition of output speed), tokens/s; null with < 2 writes.
 */
export function measureRecordTps(record: ReferenceStreamRecord): number | null {
  const n = record.writeAt.length;
  if (n < 2) return null;
  let tokens = 0;
  for (let i = 1; i < n; i++) tokens += record.writeTokens[i]!;
  const span = record.writeAt[n - 1]! - record.writeAt[0]!;
  return span > 0 ? (tokens / span) * 1000 : null;
}

/** Where a prompt's answer starts in the reference word sequence (SHA-256 of the prompt, 24 bits). */
function promptWordOffset(prompt: string): number {
  return createHash('sha256').update(prompt).digest().readUIntBE(0, 3);
}

/** Model id the server reports. */
export const REFERENCE_MODEL_ID = 'tokenpace-reference';

interface ActiveStream {
  res: ServerResponse;
  /** absolute performance.now() the first content chunk is due */
  firstAt: number;
  /** absolute performance.now() the first content chunk was written (null before) */
  firstWrittenAt: number | null;
  record: ReferenceStreamRecord | null;
  msPerToken: number;
  perChunk: number;
  total: number;
  /** tokens already written */
  sent: number;
  /** content chunks written */
  chunksSent: number;
  finish: 'stop' | 'length';
  /** wire format: Chat Completions chunks or Responses API events */
  wire: 'chat' | 'responses';
  /** Responses events written so far (their sequence_number) */
  seq: number;
  /** Responses: the answer text so far (for the `.done` events) */
  text: string;
  /** Token texts streamed before the reference words: the correct reply to a fidelity prompt (lib/fidelity), else empty. */
  prefix: readonly string[];
  /** structured output: JSON text, or JSON arguments of the forced tool named here; null for free text */
  structured: { tool: string | null } | null;
  /** prompt tokens (o200k) and those served from the prefix cache; null without a prefix cache */
  cache: { promptTokens: number; cachedTokens: number } | null;
  /** o200k tokens of the whole prompt (its conversation text), reported as prompt_tokens / input_tokens with or without a cache (decision 292) */
  promptTokens: number;
  /** the tier that served the stream, named in the response when the request asked for one (decision 293); null: none asked */
  servedTier: string | null;
  /** offset into the reference word sequence, from the prompt: a different prompt gets a different answer (repeated_answer, decision 171) */
  wordOffset: number;
  id: string;
  model: string;
  created: number;
}

/**
 * Starts the server. Throws RangeError for invalid options; rejects if the port cannot be bound.
 */
export async function startReferenceServer(options: ReferenceServerOptions): Promise<ReferenceServer> {
  const host = options.host ?? '127.0.0.1';
  const tps = options.tps;
  const perChunk = options.tokensPerChunk ?? 1;
  const outputTokens = options.outputTokens ?? 256;
  if (!(tps > 0) || !Number.isFinite(tps)) throw new RangeError('tps must be a positive number');
  if (!(options.ttftMs >= 0) || !Number.isFinite(options.ttftMs)) throw new RangeError('ttftMs must be a non-negative number');
  if (!Number.isInteger(perChunk) || perChunk < 1) throw new RangeError('tokensPerChunk must be an integer ≥ 1');
  if (!Number.isInteger(outputTokens) || outputTokens < 1) throw new RangeError('outputTokens must be an integer ≥ 1');
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) throw new RangeError('port must be an integer 0-65535');
  const capacityTps = options.capacityTps;
  if (capacityTps !== undefined && (!(capacityTps > 0) || !Number.isFinite(capacityTps))) throw new RangeError('capacityTps must be a positive number');
  const maxOpenStreams = options.maxOpenStreams ?? Number.POSITIVE_INFINITY;
  if (options.maxOpenStreams !== undefined && (!Number.isInteger(maxOpenStreams) || maxOpenStreams < 1))
    throw new RangeError('maxOpenStreams must be an integer ≥ 1');
  const log: ReferenceStreamRecord[] = [];
  const slowdown = options.slowdownFactor ?? 1;
  if (!(slowdown >= 1) || !Number.isFinite(slowdown)) throw new RangeError('slowdownFactor must be a number ≥ 1');
  if (options.structuredTps !== undefined && (!(options.structuredTps > 0) || !Number.isFinite(options.structuredTps)))
    throw new RangeError('structuredTps must be a positive number');
  const prefixCache = options.prefixCache ? createPrefixCache(options.prefixCache) : null;
  const tierRate = createTierRates(options.serviceTiers ?? {});
  /** Delivery records of the last DELIVERY_LOG_SIZE streams, by id (always kept, bounded). */
  const deliveries = new Map<string, ReferenceStreamRecord>();

  const streams = new Set<ActiveStream>();
  const sockets = new Set<Socket>();
  let sequence = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let spinning = false;

  /** One Responses API event, numbered. */
  const responsesEvent = (s: ActiveStream, type: string, fields: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: s.seq++, ...fields })}\n\n`;
  const responseObject = (s: ActiveStream, status: string, extra: Record<string, unknown> = {}) => ({
    id: s.id,
    object: 'response',
    created_at: s.created,
    status,
    model: s.model,
    output: [],
    ...(s.servedTier !== null ? { service_tier: s.servedTier } : {}),
    ...extra,
  });
  const itemId = (s: ActiveStream) => (s.structured?.tool ? `fc_${s.id}` : `msg_${s.id}`);
  /** A forced tool on the Responses wire: one function_call item whose arguments stream (decision 267). */
  const functionCallItem = (s: ActiveStream, status: string, args: string) => ({
    id: itemId(s),
    type: 'function_call',
    status,
    call_id: `call_${s.id}`,
    name: s.structured!.tool,
    arguments: args,
  });
  const responsesStart = (s: ActiveStream) =>
    s.structured?.tool
      ? responsesEvent(s, 'response.created', { response: responseObject(s, 'in_progress') }) +
        responsesEvent(s, 'response.in_progress', { response: responseObject(s, 'in_progress') }) +
        responsesEvent(s, 'response.output_item.added', { output_index: 0, item: functionCallItem(s, 'in_progress', '') })
      : responsesEvent(s, 'response.created', { response: responseObject(s, 'in_progress') }) +
        responsesEvent(s, 'response.in_progress', { response: responseObject(s, 'in_progress') }) +
        responsesEvent(s, 'response.output_item.added', {
          output_index: 0,
          item: { id: itemId(s), type: 'message', status: 'in_progress', role: 'assistant', content: [] },
        }) +
        responsesEvent(s, 'response.content_part.added', {
          item_id: itemId(s),
          output_index: 0,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [] },
        });
  const responsesEnd = (s: ActiveStream) => {
    const part = { type: 'output_text', text: s.text, annotations: [] };
    const item = { id: itemId(s), type: 'message', status: 'completed', role: 'assistant', content: [part] };
    const usage = {
      input_tokens: s.promptTokens,
      input_tokens_details: { cached_tokens: s.cache?.cachedTokens ?? 0 },
      output_tokens: s.total,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: s.promptTokens + s.total,
    };
    if (s.structured?.tool) {
      const call = functionCallItem(s, 'completed', s.text);
      return (
        responsesEvent(s, 'response.function_call_arguments.done', { item_id: itemId(s), output_index: 0, arguments: s.text }) +
        responsesEvent(s, 'response.output_item.done', { output_index: 0, item: call }) +
        (s.finish === 'length'
          ? responsesEvent(s, 'response.incomplete', {
              response: responseObject(s, 'incomplete', { output: [call], incomplete_details: { reason: 'max_output_tokens' }, usage }),
            })
          : responsesEvent(s, 'response.completed', { response: responseObject(s, 'completed', { output: [call], usage }) }))
      );
    }
    // In order: each event takes the next sequence_number when it is formatted.
    const done =
      responsesEvent(s, 'response.output_text.done', { item_id: itemId(s), output_index: 0, content_index: 0, text: s.text }) +
      responsesEvent(s, 'response.content_part.done', { item_id: itemId(s), output_index: 0, content_index: 0, part }) +
      responsesEvent(s, 'response.output_item.done', { output_index: 0, item });
    const final =
      s.finish === 'length'
        ? responsesEvent(s, 'response.incomplete', {
            response: responseObject(s, 'incomplete', { output: [item], incomplete_details: { reason: 'max_output_tokens' }, usage }),
          })
        : responsesEvent(s, 'response.completed', { response: responseObject(s, 'completed', { output: [item], usage }) });
    return done + final;
  };

  const chunk = (s: ActiveStream, delta: string, finish: string | null) =>
    `data: {"id":"${s.id}","object":"chat.completion.chunk","created":${s.created},"model":${JSON.stringify(s.model)},"choices":[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${finish === null ? 'null' : `"${finish}"`}}]}\n\n`;

  /**
   * Due time (absolute) of content chunk j (1-based): the first at firstAt; later ones from the
   * first chunk's actual write time, tokens after the first chunk at exactly the stream's rate.
   */
  const dueAt = (s: ActiveStream, j: number) =>
    j <= 1 || s.firstWrittenAt === null ? s.firstAt : s.firstWrittenAt + (Math.min(j * s.perChunk, s.total) - Math.min(s.perChunk, s.total)) * s.msPerToken;

  /**
   * The done stamp of the record's newest write, taken in the write's callback: Node's HTTP
   * response corks the socket and makes the syscall on the next tick, so the return of
   * `res.write` is not yet the write; its callback runs after the bytes went to the kernel.
   * NaN until then (and for good when the client left before the flush).
   */
  const flushedAt = (record: ReferenceStreamRecord) => {
    const i = record.writeDoneAt.push(Number.NaN) - 1;
    return () => {
      record.writeDoneAt[i] = performance.timeOrigin + performance.now();
    };
  };

  const tick = () => {
    timer = null;
    spinning = false;
    const now = performance.now();
    let nextDue = Number.POSITIVE_INFINITY;
    for (const s of streams) {
      let out = '';
      const sentBefore = s.sent;
      while (s.sent < s.total && dueAt(s, s.chunksSent + 1) <= now) {
        const n = Math.min(s.perChunk, s.total - s.sent);
        let text = '';
        for (let k = 0; k < n; k++) {
          const i = s.sent + k;
          // structured: the JSON opening is the prefix (one o200k token each), `"}` the last token
          text += s.structured && i === s.total - 1 && s.total > s.prefix.length ? '"}' : (s.prefix[i] ?? referenceWord(s.wordOffset + i));
        }
        s.sent += n;
        s.chunksSent++;
        if (s.firstWrittenAt === null) s.firstWrittenAt = now;
        if (s.wire === 'responses') {
          s.text += text;
          out += s.structured?.tool
            ? responsesEvent(s, 'response.function_call_arguments.delta', { item_id: itemId(s), output_index: 0, delta: text })
            : responsesEvent(s, 'response.output_text.delta', { item_id: itemId(s), output_index: 0, content_index: 0, delta: text, logprobs: [] });
        } else if (s.structured?.tool) {
          const open = s.chunksSent === 1 ? `"id":"call_${s.id}","type":"function","function":{"name":${JSON.stringify(s.structured.tool)},` : '"function":{';
          out += chunk(s, `{"tool_calls":[{"index":0,${open}"arguments":${JSON.stringify(text)}}}]}`, null);
        } else out += chunk(s, `{"content":${JSON.stringify(text)}}`, null);
      }
      const wrote = s.record !== null && s.sent > sentBefore;
      if (wrote) {
        s.record!.writeAt.push(performance.timeOrigin + now);
        s.record!.writeTokens.push(s.sent - sentBefore);
      }
      if (s.sent >= s.total) {
        if (s.record) s.record.completed = true;
        if (s.wire === 'responses') out += responsesEnd(s);
        else {
          out += chunk(s, '{}', s.structured?.tool && s.finish === 'stop' ? 'tool_calls' : s.finish);
          const usage = s.cache
            ? `{"prompt_tokens":${s.cache.promptTokens},"completion_tokens":${s.total},"total_tokens":${s.cache.promptTokens + s.total},"prompt_tokens_details":{"cached_tokens":${s.cache.cachedTokens}}}`
            : `{"prompt_tokens":${s.promptTokens},"completion_tokens":${s.total},"total_tokens":${s.promptTokens + s.total}}`;
          const tier = s.servedTier !== null ? `,"service_tier":${JSON.stringify(s.servedTier)}` : '';
          out += `data: {"id":"${s.id}","object":"chat.completion.chunk","created":${s.created},"model":${JSON.stringify(s.model)}${tier},"choices":[],"usage":${usage}}\n\n`;
          out += 'data: [DONE]\n\n';
        }
        s.res.end(out, wrote ? flushedAt(s.record!) : undefined);
        streams.delete(s);
        continue;
      }
      if (out) s.res.write(out, wrote ? flushedAt(s.record!) : undefined);
      nextDue = Math.min(nextDue, dueAt(s, s.chunksSent + 1));
    }
    schedule(nextDue);
  };

  const schedule = (due: number) => {
    if (streams.size === 0 || timer || spinning) return;
    const wait = due - performance.now();
    if (wait > 2) timer = setTimeout(tick, wait - 1);
    else {
      spinning = true;
      setImmediate(tick);
    }
  };

  const handleCompletion = (req: IncomingMessage, res: ServerResponse, body: string, wire: 'chat' | 'responses') => {
    const readAt = performance.now();
    let request: {
      model?: unknown;
      messages?: unknown;
      input?: unknown;
      max_tokens?: unknown;
      max_completion_tokens?: unknown;
      max_output_tokens?: unknown;
      stream?: unknown;
    };
    try {
      request = JSON.parse(body || '{}');
    } catch {
      return sendJson(res, 400, { error: { message: 'request body is not JSON', type: 'invalid_request_error' } });
    }
    if (request.stream !== true) {
      return sendJson(res, 400, { error: { message: 'the reference server only streams: send "stream": true', type: 'invalid_request_error' } });
    }
    const limitRaw = wire === 'responses' ? request.max_output_tokens : (request.max_tokens ?? request.max_completion_tokens);
    const limit = typeof limitRaw === 'number' && Number.isInteger(limitRaw) && limitRaw >= 1 ? limitRaw : Number.POSITIVE_INFINITY;
    const total = Math.min(outputTokens, limit);
    if (streams.size >= maxOpenStreams) {
      res.setHeader('retry-after', '1');
      return sendJson(res, 429, { error: { message: `at most ${maxOpenStreams} open streams`, type: 'rate_limit_error' } });
    }
    const openStreams = streams.size + 1;
    const structured = structuredRequest(request as Record<string, unknown>, wire);
    const askedTier = typeof (request as { service_tier?: unknown }).service_tier === 'string' ? (request as { service_tier: string }).service_tier : null;
    const rate = structured && options.structuredTps !== undefined ? options.structuredTps : (tierRate(askedTier) ?? tps);
    const assignedTps = capacityTps === undefined ? rate : Math.min(rate, capacityTps / openStreams);
    const id = `${wire === 'responses' ? 'resp' : 'chatcmpl'}-ref-${++sequence}`;
    const messages = wire === 'responses' ? (typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input) : request.messages;
    const promptText = conversationText(messages);
    const cache = prefixCache ? prefixCache.lookup(promptText) : null;
    const ttftMs = cache && cache.cachedTokens > 0 ? options.prefixCache!.hitTtftMs : options.ttftMs;
    const record: ReferenceStreamRecord = {
      id,
      openedAt: performance.timeOrigin + readAt,
      openStreams,
      assignedTps,
      writeAt: [],
      writeDoneAt: [],
      writeTokens: [],
      completed: false,
      serviceTier: askedTier,
      promptSha256: createHash('sha256').update(promptText).digest('hex'),
    };
    if (options.recordWrites) log.push(record);
    deliveries.set(id, record);
    if (deliveries.size > DELIVERY_LOG_SIZE) deliveries.delete(deliveries.keys().next().value!);
    const s: ActiveStream = {
      res,
      firstAt: readAt + ttftMs,
      firstWrittenAt: null,
      record,
      msPerToken: (1000 / assignedTps) * slowdown,
      perChunk,
      total,
      sent: 0,
      chunksSent: 0,
      finish: limit <= outputTokens ? 'length' : 'stop',
      wire,
      seq: 0,
      text: '',
      // The reference server knows the fidelity tasks: it answers them correctly (calibration proves the check end to end).
      // A Responses `input` is a string or a list of messages, read like Chat messages.
      prefix: structured ? JSON_OPENING_TOKENS : (answerFidelityTokens(messages) ?? []),
      structured,
      cache,
      promptTokens: cache ? cache.promptTokens : countO200kTokens(promptText),
      servedTier: askedTier === null ? null : options.serviceTiers && Object.hasOwn(options.serviceTiers, askedTier) ? askedTier : 'default',
      wordOffset: promptWordOffset(promptText),
      id,
      model: typeof request.model === 'string' && request.model !== '' ? request.model : REFERENCE_MODEL_ID,
      created: Math.floor(Date.now() / 1000),
    };
    req.socket.setNoDelay(true);
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', [STREAM_ID_HEADER]: id });
    res.write(wire === 'responses' ? responsesStart(s) : chunk(s, '{"role":"assistant","content":""}', null));
    res.on('close', () => streams.delete(s));
    streams.add(s);
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    schedule(s.firstAt);
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (req.method === 'GET' && (path === '/v1/models' || path === '/models')) {
      req.resume();
      return sendJson(res, 200, { object: 'list', data: [{ id: REFERENCE_MODEL_ID, object: 'model', created: 0, owned_by: 'tokenpace' }] });
    }
    const delivery = /^\/(?:v1\/)?tokenpace\/deliveries\/([A-Za-z0-9-]{1,64})$/.exec(path);
    if (req.method === 'GET' && delivery) {
      req.resume();
      const r = deliveries.get(delivery[1]!);
      if (!r) return sendJson(res, 404, { error: { message: `no delivery record for ${delivery[1]}`, type: 'not_found' } });
      return sendJson(res, 200, reportOf(r, options.ttftMs));
    }
    const wire =
      path === '/v1/chat/completions' || path === '/chat/completions' ? 'chat' : path === '/v1/responses' || path === '/responses' ? 'responses' : null;
    if (req.method === 'POST' && wire !== null) {
      const parts: Buffer[] = [];
      req.on('data', (b: Buffer) => parts.push(b));
      req.on('end', () => handleCompletion(req, res, Buffer.concat(parts).toString('utf8'), wire));
      return;
    }
    req.resume();
    sendJson(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'not_found' } });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}/v1`,
    port,
    close: async () => {
      if (timer) clearTimeout(timer);
      for (const s of streams) s.res.destroy();
      streams.clear();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    writeLog: () => log,
    clearWriteLog: () => {
      log.length = 0;
    },
    openStreams: () => streams.size,
  };
}

/**
 * Whether a request asks for structured output (Chat `response_format` json_schema / json_object,
 * Responses `text.format` json_schema) or a forced tool (Chat `tool_choice: {type: "function",
 * function: {name}}`; Responses tools are answered as JSON text): null for free text.
 */
function structuredRequest(request: Record<string, unknown>, wire: 'chat' | 'responses'): { tool: string | null } | null {
  const rec = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  if (wire === 'chat') {
    const choice = rec(request.tool_choice);
    const name = rec(choice.function).name;
    if (choice.type === 'function' && typeof name === 'string' && name !== '') return { tool: name };
    const format = rec(request.response_format).type;
    return format === 'json_schema' || format === 'json_object' ? { tool: null } : null;
  }
  const format = rec(rec(request.text).format).type;
  const choice = rec(request.tool_choice);
  if (choice.type === 'function' && typeof choice.name === 'string' && choice.name !== '') return { tool: choice.name };
  return format === 'json_schema' ? { tool: null } : null;
}

/**
 * The prefix cache of one server (see the module doc): `lookup(prompt)` returns the prompt's o200k
 * length and the tokens served from the cache (0 on a miss), then stores the prompt's blocks.
 * @throws RangeError for invalid options
 */
function createPrefixCache(o: PrefixCacheOptions) {
  const hitShare = o.hitShare ?? 1;
  const block = o.blockTokens ?? 128;
  const maxBlocks = o.maxBlocks ?? 65_536;
  if (!(o.hitTtftMs >= 0) || !Number.isFinite(o.hitTtftMs)) throw new RangeError('prefixCache.hitTtftMs must be a non-negative number');
  if (!(hitShare >= 0 && hitShare <= 1)) throw new RangeError('prefixCache.hitShare must be in [0, 1]');
  if (!Number.isInteger(block) || block < 1) throw new RangeError('prefixCache.blockTokens must be an integer ≥ 1');
  if (!Number.isInteger(maxBlocks) || maxBlocks < 1) throw new RangeError('prefixCache.maxBlocks must be an integer ≥ 1');
  const ttl = o.ttlMs ?? Number.POSITIVE_INFINITY;
  if (!(ttl > 0)) throw new RangeError('prefixCache.ttlMs must be a positive number');
  const clock = o.now ?? (() => performance.now());
  /** block key → time of its last lookup, in insertion order (the oldest is dropped first) */
  const blocks = new Map<string, number>();
  let credit = 0;
  return {
    lookup(prompt: string): { promptTokens: number; cachedTokens: number } {
      const tokens = encodeO200k(prompt);
      const keys: string[] = [];
      let chain = '';
      for (let b = 0; (b + 1) * block <= tokens.length; b++) {
        chain = createHash('sha256')
          .update(chain)
          .update(Uint32Array.from(tokens.slice(b * block, (b + 1) * block)))
          .digest('hex');
        keys.push(chain);
      }
      const now = clock();
      const alive = (k: string) => {
        const at = blocks.get(k);
        return at !== undefined && now - at <= ttl;
      };
      let matched = 0;
      while (matched < keys.length && alive(keys[matched]!)) matched++;
      for (const k of keys) {
        blocks.delete(k);
        blocks.set(k, now);
      }
      while (blocks.size > maxBlocks) blocks.delete(blocks.keys().next().value!);
      if (matched === 0) return { promptTokens: tokens.length, cachedTokens: 0 };
      credit += hitShare;
      if (credit >= 1 - 1e-9) {
        credit -= 1;
        return { promptTokens: tokens.length, cachedTokens: matched * block };
      }
      return { promptTokens: tokens.length, cachedTokens: 0 };
    },
  };
}

/**
 * The text of a request's whole conversation, as the prefix cache keys it: every message's text
 * (Chat/Responses `content` as a string or typed parts), each tool call's arguments (Chat
 * `tool_calls[].function.arguments`, Responses `function_call` items), each tool result (Chat
 * `role: "tool"` content, Responses `function_call_output` output), in order, joined by a blank
 * line. One user message gives exactly its text (the single-prompt workloads' cache is unchanged).
 */
export function conversationText(messages: unknown): string {
  if (!Array.isArray(messages)) return '';
  const text = (content: unknown): string =>
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('')
        : '';
  const parts: string[] = [];
  for (const m of messages as Array<Record<string, unknown> | null>) {
    if (!m || typeof m !== 'object') continue;
    if (m.type === 'function_call') parts.push(typeof m.arguments === 'string' ? m.arguments : '');
    else if (m.type === 'function_call_output') parts.push(typeof m.output === 'string' ? m.output : '');
    else if (Array.isArray(m.tool_calls))
      parts.push(
        (m.tool_calls as Array<{ function?: { arguments?: unknown } } | null>)
          .map((c) => (typeof c?.function?.arguments === 'string' ? c.function.arguments : ''))
          .join(''),
      );
    else parts.push(text(m.content));
  }
  return parts.join('\n\n');
}

/**
 * The decode rate of a stream asking for `tier` (see the module doc: the slow share by error
 * diffusion per tier), or null when the tier is absent or not configured.
 * @throws RangeError for invalid options
 */
function createTierRates(tiers: Record<string, ServiceTierOptions>): (tier: string | null) => number | null {
  const credit = new Map<string, number>();
  for (const [name, t] of Object.entries(tiers)) {
    const slowShare = t.slowShare ?? 0;
    if (!(t.tps > 0) || !Number.isFinite(t.tps)) throw new RangeError(`serviceTiers.${name}.tps must be a positive number`);
    if (!(slowShare >= 0 && slowShare <= 1)) throw new RangeError(`serviceTiers.${name}.slowShare must be in [0, 1]`);
    if (slowShare > 0 && (t.slowTps === undefined || !(t.slowTps > 0) || !Number.isFinite(t.slowTps)))
      throw new RangeError(`serviceTiers.${name}.slowTps must be a positive number when slowShare > 0`);
    credit.set(name, 0);
  }
  return (tier) => {
    if (tier === null || !Object.hasOwn(tiers, tier)) return null;
    const t = tiers[tier]!;
    const c = credit.get(tier)! + (t.slowShare ?? 0);
    if (c >= 1 - 1e-9) {
      credit.set(tier, c - 1);
      return t.slowTps!;
    }
    credit.set(tier, c);
    return t.tps;
  };
}

/** The public report of one stream record (see {@link DeliveryReport}). */
function reportOf(r: ReferenceStreamRecord, configuredTtftMs: number): DeliveryReport {
  const range = measureRecordTpsRange(r);
  return {
    id: r.id,
    // the rate this stream was given (the configured tps, or its share of capacityTps)
    configuredTps: r.assignedTps,
    configuredTtftMs,
    deliveredTtftMs: r.writeAt.length > 0 ? r.writeAt[0]! - r.openedAt : null,
    readAtEpochMs: r.openedAt,
    firstWriteAtEpochMs: r.writeAt[0] ?? null,
    firstWriteDoneAtEpochMs: r.writeDoneAt[0] !== undefined && !Number.isNaN(r.writeDoneAt[0]) ? r.writeDoneAt[0] : null,
    deliveredTps: measureRecordTps(r),
    deliveredTpsMin: range?.min ?? null,
    deliveredTpsMax: range && Number.isFinite(range.max) ? range.max : null,
    writes: r.writeAt.length,
    tokens: r.writeTokens.reduce((n, t) => n + t, 0),
    completed: r.completed,
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
