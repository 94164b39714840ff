/**
 * Test support (vitest only): a real local HTTP server in front of a reference server that fails
 * the requests a rule picks (HTTP 500 with a JSON error, or a dropped connection) and passes the
 * others through unchanged, noting every request's arrival (epoch ms on the monotonic clock, as
 * lib/sweep's sweepClock) and whether it failed.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FaultyFront {
  /** http://127.0.0.1:<port>/v1 */
  url: string;
  /** Every request in arrival order. */
  arrivals(): Array<{ n: number; at: number; failed: boolean }>;
  close(): Promise<void>;
}

/**
 * Starts the front. `fail(n)` decides for the n-th request (1-based, arrival order); `upstream`
 * is the reference server's origin (http://127.0.0.1:port), or null to answer every passing
 * request with 500 too (then `fail` is ignored).
 */
export async function startFaultyFront(opts: { upstream: string | null; fail: (n: number) => boolean; kind?: 'http_500' | 'reset' }): Promise<FaultyFront> {
  const log: Array<{ n: number; at: number; failed: boolean }> = [];
  const server: Server = createServer((req, res) => {
    const n = log.length + 1;
    const failed = opts.upstream === null || opts.fail(n);
    log.push({ n, at: performance.timeOrigin + performance.now(), failed });
    if (failed) {
      req.resume();
      if (opts.kind === 'reset') {
        req.socket.destroy();
        return;
      }
      req.on('end', () => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"engine down"}}');
      });
      return;
    }
    const target = new URL(req.url ?? '/', opts.upstream!);
    const up = httpRequest(target, { method: req.method, headers: req.headers }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
    });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    arrivals: () => [...log],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
