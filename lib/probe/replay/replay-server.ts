/**
 * Replays a stream case over real HTTP on 127.0.0.1 (cases tests and `tokenpace replay`), following
 * ../test-support/cases/README.md:
 * time 0 is the moment the whole request has been read; status and headers go out at once; each
 * write is sent at its `at_ms`, exactly as given (never merged or split here, Nagle off); then
 * `end`: close, reset (TCP RST), or hang (keep the connection open until the client leaves or
 * the server is closed). Every request gets the same replay; the request body is ignored.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { writeBytes, type ReplayCase } from './case-file';

/** Delay between the last write and a TCP reset (see finish()). */
const RESET_GRACE_MS = 50;

/** A running replay server. */
export interface ReplayServer {
  /** base URL, e.g. http://127.0.0.1:40123 (adapters append their paths; the path is ignored) */
  url: string;
  /** requests received so far */
  requestCount(): number;
  /** largest lateness of a write against its schedule, ms (diagnostics for timing tests) */
  maxWriteLagMs(): number;
  /** stops the server and destroys every open connection (hung ones included) */
  close(): Promise<void>;
}

/** Starts a replay server for `replayCase` on an ephemeral loopback port. */
export async function startReplayServer(replayCase: ReplayCase): Promise<ReplayServer> {
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let requests = 0;
  let maxLag = 0;
  const writes = replayCase.writes.map((w) => ({ atMs: w.at_ms, bytes: writeBytes(w) }));

  const serve = (req: IncomingMessage, res: ServerResponse) => {
    requests++;
    req.on('data', () => {});
    req.on('end', () => {
      const t0 = performance.now();
      req.socket.setNoDelay(true);
      const headers = { ...replayCase.response.headers };
      if (replayCase.end === 'close' && !('connection' in headers)) headers.connection = 'close';
      res.writeHead(replayCase.response.status, headers);
      res.flushHeaders();
      let index = 0;
      const next = () => {
        if (res.destroyed) return;
        if (index >= writes.length) return finish();
        const write = writes[index]!;
        const delay = t0 + write.atMs - performance.now();
        if (delay > 0) {
          const timer = setTimeout(() => {
            timers.delete(timer);
            maxLag = Math.max(maxLag, performance.now() - (t0 + write.atMs));
            index++;
            res.write(write.bytes);
            next();
          }, delay);
          timers.add(timer);
          return;
        }
        maxLag = Math.max(maxLag, -delay);
        index++;
        res.write(write.bytes);
        // Yield between writes due at the same moment so each goes out as its own write.
        const timer = setTimeout(() => {
          timers.delete(timer);
          next();
        }, 0);
        timers.add(timer);
      };
      const finish = () => {
        if (replayCase.end === 'close') res.end();
        else if (replayCase.end === 'reset') {
          // A RST makes the client's kernel drop received-but-unread bytes, so resetting in the
          // same tick as the last write would lose that write. Reset once the client has had
          // time to read it (nothing is timed after a reset: e2e is null for such cases).
          const socket = res.socket as Socket & { resetAndDestroy?: () => void };
          const timer = setTimeout(() => {
            timers.delete(timer);
            if (socket?.resetAndDestroy) socket.resetAndDestroy();
            else socket?.destroy();
          }, RESET_GRACE_MS);
          timers.add(timer);
        }
        // 'hang': do nothing; close() or the client ends it.
      };
      next();
    });
  };

  const server = createServer(serve);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requestCount: () => requests,
    maxWriteLagMs: () => maxLag,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
