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

/**
 * How much sooner than the case's gap a late write may follow the one before it, ms: timer
 * jitter (setTimeout fires up to ~1 ms late) is caught up, so a quiet replay keeps the absolute
 * schedule, while a stall never turns into a burst.
 */
const CATCH_UP_MS = 1;

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
  /**
   * When each write of the last replay really went out, ms on this process's performance.now()
   * clock, in case order (shorter than the case's writes when the client left first). A loaded
   * machine shows here: the truth a test compares the probe with.
   */
  writeTimes(): readonly number[];
  /**
   * Largest lateness of a write of the last replay against its own due time (the case's gap
   * after the write before it), ms: how far the stream's SHAPE strayed from the case's (0 on a
   * quiet machine, up to a timer tick).
   */
  maxShapeLagMs(): number;
  /** stops the server and destroys every open connection (hung ones included) */
  close(): Promise<void>;
}

/** Starts a replay server for `replayCase` on an ephemeral loopback port. */
export async function startReplayServer(replayCase: ReplayCase): Promise<ReplayServer> {
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let requests = 0;
  let maxLag = 0;
  let sentAt: number[] = [];
  let maxShapeLag = 0;
  const writes = replayCase.writes.map((w) => ({ atMs: w.at_ms, bytes: writeBytes(w) }));

  const serve = (req: IncomingMessage, res: ServerResponse) => {
    requests++;
    req.on('data', () => {});
    req.on('end', () => {
      const t0 = performance.now();
      sentAt = [];
      maxShapeLag = 0;
      req.socket.setNoDelay(true);
      const headers = { ...replayCase.response.headers };
      if (replayCase.end === 'close' && !('connection' in headers)) headers.connection = 'close';
      res.writeHead(replayCase.response.status, headers);
      res.flushHeaders();
      let index = 0;
      // A write is due at its at_ms, or, after a late write, no sooner than the case's gap after
      // the write before it (less CATCH_UP_MS): a loaded machine delays the rest of the stream
      // but never bunches overdue writes into a burst the case does not have (the stream keeps
      // its shape; cf. the reference server's schedule from its actual first write).
      const dueAt = (i: number) => {
        const at = t0 + writes[i]!.atMs;
        const before = sentAt[i - 1];
        return i === 0 || before === undefined ? at : Math.max(at, before + writes[i]!.atMs - writes[i - 1]!.atMs - CATCH_UP_MS);
      };
      const send = (i: number) => {
        const now = performance.now();
        maxLag = Math.max(maxLag, now - (t0 + writes[i]!.atMs));
        maxShapeLag = Math.max(maxShapeLag, now - dueAt(i));
        sentAt.push(now);
        res.write(writes[i]!.bytes);
      };
      const next = () => {
        if (res.destroyed) return;
        if (index >= writes.length) return finish();
        const delay = dueAt(index) - performance.now();
        if (delay > 0) {
          const timer = setTimeout(() => {
            timers.delete(timer);
            send(index++);
            next();
          }, delay);
          timers.add(timer);
          return;
        }
        send(index++);
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
    writeTimes: () => sentAt,
    maxShapeLagMs: () => maxShapeLag,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
