/**
 * Property: however the network cuts a stream into reads, the probe parses the same thing.
 * For every 2xx replay case, the body is re-cut at arbitrary points (merging and splitting the
 * server's writes) and fed to the parsing layer (parseStream + buildProbeResult) with a fake
 * clock, without HTTP. Content, token counts, content chunks, usage, finish reason and outcome
 * must equal the case's expectations for every cut. A second property only splits writes (never
 * merges them), so every event still completes in the write that completes it on the wire: then
 * the timeline times must equal the case's times exactly.
 */
import { constants as zlibConstants, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildProbeResult } from './build-probe-result';
import { parseStream } from './parse-stream';
import { cutBody, timedBody, type TimedPiece } from './test-support/cut-body';
import { expectCaseContent } from './test-support/expect-case-content';
import { CASES_DIR, loadCases, writeBytes, type ReplayCase } from './test-support/replay-case';
import type { ProbeResult } from './types';

const streamCases = loadCases(CASES_DIR).filter((c) => c.response.status >= 200 && c.response.status < 300);

/**
 * The writes as the parser sees them: a gzip-encoded case (F07) is decoded the way fetch does,
 * each write giving the bytes its sync-flushed segment decompresses to (same time).
 */
function decodedWrites(c: ReplayCase): Array<{ bytes: Buffer; atMs: number }> {
  const raw = c.writes.map((w) => ({ bytes: writeBytes(w), atMs: w.at_ms }));
  if (!/gzip/i.test(c.response.headers['content-encoding'] ?? '')) return raw;
  let previous = 0;
  return raw.map((w, i) => {
    const prefix = Buffer.concat(raw.slice(0, i + 1).map((x) => x.bytes));
    const out = gunzipSync(prefix, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
    const piece = out.subarray(previous);
    previous = out.length;
    return { bytes: piece, atMs: w.atMs };
  });
}

/** Property runs are CPU work whose wall time grows with the machine's load: their timeout only catches a hang. */
const PROPERTY_TIMEOUT_MS = 180_000;

/** The body as (byte, time-of-its-write) so any re-cut piece gets the time its last byte was sent. */
function bodyWithTimes(c: ReplayCase): { body: Buffer; timeOf: number[] } {
  const parts = decodedWrites(c).map((w) => w.bytes);
  const timeOf: number[] = [];
  parts.forEach((p, i) => {
    for (let k = 0; k < p.length; k++) timeOf.push(c.writes[i]!.at_ms);
  });
  return { body: Buffer.concat(parts), timeOf };
}

/** Feeds pieces like a response body would, ending as the case ends (close, reset, hang). */
async function parsePieces(c: ReplayCase, pieces: TimedPiece[]): Promise<ProbeResult> {
  const endError = c.end === 'reset' ? new Error('read ECONNRESET') : c.end === 'hang' ? new Error('aborted by a deadline') : undefined;
  const { chunks, now } = timedBody(pieces, endError);
  const parsed = await parseStream(c.protocol, chunks, now, { maxBytes: c.probe?.deadlines?.maxBytes ?? 4 * 1024 * 1024 });
  const hungUp = c.end === 'hang' && parsed.endReason === 'read_error';
  return buildProbeResult(parsed, {
    protocol: c.protocol,
    httpStatus: c.response.status,
    ttfbMs: 0,
    connectMs: null,
    abort: hungUp ? { kind: 'timeout', message: 'deadline' } : null,
  });
}

function expectMatchesCase(c: ReplayCase, r: ProbeResult): void {
  const e = c.expect;
  expect(r.outcome).toBe(e.outcome);
  expect(r.errorKind).toBe(e.error_kind);
  expectCaseContent(r, e);
}

describe('split invariance of the parsing layer', () => {
  it('covers every streaming case', () => {
    expect(streamCases.length).toBeGreaterThanOrEqual(40);
  });

  it('the writes as sent give the expected result and times (fake clock)', async () => {
    for (const c of streamCases) {
      const pieces = decodedWrites(c);
      const r = await parsePieces(c, pieces);
      expectMatchesCase(c, r);
      expect(r.ttftMs).toBe(c.expect.ttft_ms);
      expect(r.ttfatMs).toBe(c.expect.ttfat_ms);
      expect(r.lastTokenMs).toBe(c.expect.last_token_ms);
    }
  });

  it(
    'any re-cut of the bytes (merges and splits) parses to the same content, tokens, chunks and outcome',
    async () => {
      let runs = 0;
      for (const c of streamCases) {
        const { body, timeOf } = bodyWithTimes(c);
        const asSent = await parsePieces(c, decodedWrites(c));
        // One extreme cut: every byte on its own.
        const oneByte = await parsePieces(
          c,
          cutBody(
            body,
            timeOf,
            Array.from({ length: body.length }, (_, i) => i),
          ),
        );
        expectMatchesCase(c, oneByte);
        expect(oneByte.outputTokensO200k).toBe(asSent.outputTokensO200k);
        await fc.assert(
          fc.asyncProperty(fc.array(fc.integer({ min: 1, max: Math.max(1, body.length - 1) }), { maxLength: 40 }), async (points) => {
            runs++;
            const r = await parsePieces(c, cutBody(body, timeOf, points));
            expectMatchesCase(c, r);
            expect(r.outputTokensO200k).toBe(asSent.outputTokensO200k);
            expect(r.timeline.map((t) => t.tokens)).toEqual(asSent.timeline.map((t) => t.tokens));
            expect(r.timeline.map((t) => t.channel)).toEqual(asSent.timeline.map((t) => t.channel));
            // `buffered` depends on which events arrived together (isBulkDelivery): merges change it
            // by design. The other flags must not depend on the cut.
            expect({ ...r.flags, buffered: null }).toEqual({ ...asSent.flags, buffered: null });
          }),
          { numRuns: 80, seed: 4242 + runs },
        );
      }
      expect(runs).toBeGreaterThanOrEqual(3000);
      // A hang guard, not a speed target: ~3,000 parses of CPU, 26–31 s at load 11–15, 14 s at load 8.
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'splitting writes (never merging) keeps every event time exactly',
    async () => {
      let runs = 0;
      for (const c of streamCases) {
        const { body, timeOf } = bodyWithTimes(c);
        // Cut points always include every write boundary, so no piece spans two writes.
        const boundaries: number[] = [];
        let offset = 0;
        for (const w of decodedWrites(c)) boundaries.push((offset += w.bytes.length));
        await fc.assert(
          fc.asyncProperty(fc.array(fc.integer({ min: 1, max: Math.max(1, body.length - 1) }), { maxLength: 30 }), async (points) => {
            runs++;
            const r = await parsePieces(c, cutBody(body, timeOf, [...points, ...boundaries]));
            expectMatchesCase(c, r);
            expect(r.ttftMs).toBe(c.expect.ttft_ms);
            expect(r.ttfatMs).toBe(c.expect.ttfat_ms);
            expect(r.lastTokenMs).toBe(c.expect.last_token_ms);
          }),
          { numRuns: 40, seed: 99 + runs },
        );
      }
      expect(runs).toBeGreaterThanOrEqual(1500);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
