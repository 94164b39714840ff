import { describe, expect, it } from 'vitest';
import { readAndParse, type ReadStamps } from './stamped-read';

const enc = new TextEncoder();
const event = (text: string) => `data: {"choices":[{"index":0,"delta":{"content":${JSON.stringify(text)}},"finish_reason":null}]}\n\n`;

/** A body whose web-stream chunks are given, all available at once (a reader that lags behind). */
function bodyOf(chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(enc.encode(c));
      controller.close();
    },
  });
}

describe('readAndParse', () => {
  it('gives each event the socket stamp of the read that completed it, cutting a web-stream chunk at read boundaries', async () => {
    const a = event(' alpha');
    const b = event(' beta');
    const c = event(' gamma');
    // Three socket reads (a, b, c) delivered to the reader as ONE chunk, and a stamp per read;
    // the reader sees them about a second after they arrived.
    const t0 = performance.now() - 1_000;
    const stamps: ReadStamps = {
      readEnds: [a.length, a.length + b.length, a.length + b.length + c.length],
      readStamps: [t0 + 10, t0 + 20, t0 + 30],
    };
    const r = await readAndParse({
      protocol: 'openai-chat',
      body: bodyOf([a + b + c]),
      signal: new AbortController().signal,
      toMs: (now) => now - t0,
      stamps,
    }).result;
    expect(r.stampSource).toBe('socket');
    expect(r.events.map((e) => [e.answer, e.atMs])).toEqual([
      [' alpha', 10],
      [' beta', 20],
      [' gamma', 30],
    ]);
    expect(r.endReason).toBe('eof');
    expect(r.bytesReceived).toBe(a.length + b.length + c.length);
    // The parse ran ~1 s after the reads: the lag is reported, the times are not moved by it.
    expect(r.maxParseLagMs).toBeGreaterThan(900);
  });

  it('splits an event across two reads and stamps it with the read that completed it', async () => {
    const a = event(' one');
    const half = Math.floor(a.length / 2);
    const t0 = 500;
    const r = await readAndParse({
      protocol: 'openai-chat',
      body: bodyOf([a.slice(0, half), a.slice(half)]),
      signal: new AbortController().signal,
      toMs: (now) => now - t0,
      stamps: { readEnds: [half, a.length], readStamps: [t0 + 3, t0 + 7] },
    }).result;
    expect(r.events.map((e) => e.atMs)).toEqual([7]);
  });

  it('falls back to the reader clock when the fetch publishes no read stamps', async () => {
    const before = performance.now();
    const r = await readAndParse({
      protocol: 'openai-chat',
      body: bodyOf([event(' x'), event(' y')]),
      signal: new AbortController().signal,
      toMs: (now) => now - before,
      stamps: { readEnds: [], readStamps: [] },
    }).result;
    expect(r.stampSource).toBe('reader');
    expect(r.events).toHaveLength(2);
    for (const e of r.events) expect(e.atMs).toBeGreaterThanOrEqual(0);
  });

  it('stops at the terminal marker and ignores what follows in the same read', async () => {
    const r = await readAndParse({
      protocol: 'openai-chat',
      body: bodyOf([event(' a') + 'data: [DONE]\n\n' + event(' after')]),
      signal: new AbortController().signal,
      toMs: (now) => now,
      stamps: null,
    }).result;
    expect(r.endReason).toBe('terminal');
    expect(r.events.map((e) => e.answer)).toEqual([' a']);
  });

  it('ends as a read error, with what arrived parsed, when the signal aborts mid-body', async () => {
    const controller = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(enc.encode(event(' first')));
      },
    });
    const reading = readAndParse({ protocol: 'openai-chat', body, signal: controller.signal, toMs: (now) => now, stamps: null });
    setTimeout(() => controller.abort(new Error('deadline')), 20);
    const r = await reading.result;
    expect(r.endReason).toBe('read_error');
    expect(r.endMs).toBeNull();
    expect(r.events.map((e) => e.answer)).toEqual([' first']);
  });

  it('stops reading at the byte cap', async () => {
    const a = event(' a');
    const r = await readAndParse({
      protocol: 'openai-chat',
      body: bodyOf([a, event(' b'), event(' c')]),
      signal: new AbortController().signal,
      toMs: (now) => now,
      stamps: null,
      maxBytes: a.length + 5,
    }).result;
    expect(r.endReason).toBe('max_bytes');
    expect(r.events.map((e) => e.answer)).toEqual([' a']);
  });
});
