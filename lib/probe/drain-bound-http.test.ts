/**
 * The drain bound (decision 183) over real loopback HTTP with undici 7 (the client the probe uses):
 * a consumer that keeps up gets finite bounds on every read after the first; a consumer that falls
 * behind far enough for undici's parser to pause gets unknown (Infinity) bounds from then on,
 * because its later bytes come out of Node's buffer, not a fresh read.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetch, Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackRequestTiming } from './request-timing';

let server: Server;
let url = '';
const agent = new Agent();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  // ?big: 40 writes of 2 KiB, 2 ms apart (80 KiB: more than undici's 16 KiB body buffer);
  // otherwise 40 writes of 256 B (10 KiB in all: the parser can never pause, however late we read)
  server = createServer({ noDelay: true }, async (req, res) => {
    const size = req.url?.includes('big') ? 2048 : 256;
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    for (let i = 0; i < 40; i++) {
      res.write(Buffer.alloc(size, 97));
      await sleep(2);
    }
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await agent.close();
  await new Promise((r) => server.close(r));
});

async function readAll(stallMs: number, big: boolean): Promise<number[]> {
  const timing = trackRequestTiming();
  try {
    const res = await timing.run(() => fetch(big ? `${url}big` : url, { dispatcher: agent }));
    const reader = res.body!.getReader();
    if (stallMs > 0) await sleep(stallMs);
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
    return [...timing.readLateness];
  } finally {
    timing.dispose();
  }
}

describe('drain bound over real HTTP', () => {
  it('a consumer that keeps up: once the thread has slept, every read has a finite bound', async () => {
    const lateness = await readAll(0, false);
    expect(lateness.length).toBeGreaterThan(20);
    // the first reads may precede the first provable sleep of a fresh tracker (decision 180)
    expect(lateness.slice(-20).every((x) => Number.isFinite(x))).toBe(true);
  });

  it('a consumer that stalls until the parser pauses: later reads are unknown, never a number', async () => {
    const lateness = await readAll(300, true);
    // the server wrote all 80 KiB while the consumer slept: the parser paused at undici's 16 KiB
    expect(lateness.some((x) => x === Infinity)).toBe(true);
    const firstUnknown = lateness.indexOf(Infinity);
    expect(lateness.slice(firstUnknown).every((x) => x === Infinity)).toBe(true);
  });
});
