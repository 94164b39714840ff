/**
 * Test support for route-handler tests (vitest only): a fresh database, the environment the web
 * process would have, and actors (anonymous, providers, admin) with real better-auth sessions.
 * Call `setupApiTest()` in beforeAll BEFORE importing any route module.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { users } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { getEnv } from '@/lib/env';

export const TEST_ORIGIN = 'http://localhost:3000';

/** Prepares env + database for in-process route calls. Returns the test database. */
export async function setupApiTest(extraEnv: Record<string, string> = {}): Promise<TestDatabase> {
  const t = await createTestDatabase();
  process.env.DATABASE_URL = t.url;
  process.env.TOKENPACE_SECRET_KEY = randomBytes(32).toString('hex');
  process.env.TOKENPACE_ALLOW_PRIVATE = '1';
  process.env.PORT = '3000';
  for (const [k, v] of Object.entries(extraEnv)) process.env[k] = v;
  getEnv(true);
  return t;
}

/** A signed-in actor: headers to send (cookie or bearer token). */
export interface Actor {
  name: string;
  email: string;
  userId: string | null;
  headers: Record<string, string>;
}

export const anonymous: Actor = { name: 'anonymous', email: '', userId: null, headers: {} };

/** Marks this process as if bin/peer-address.cjs were preloaded, so tests can give each request a peer address. */
export const PEER_ADDRESS_HEADER = 'x-tokenpace-peer-address';
(globalThis as Record<symbol, unknown>)[Symbol.for('tokenpace.peerAddressHeader')] = PEER_ADDRESS_HEADER;

/** A random documentation-range peer address (so per-IP limits of one test do not touch another's). */
export function randomPeer(): string {
  return `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
}

/**
 * Signs up a new account through POST /api/auth/sign-up/email, then signs in through
 * POST /api/auth/sign-in/email (sign-up never signs in, decision record 081); returns the session cookie.
 */
export async function signUp(email: string, password = 'correct horse battery', name = 'Test Provider'): Promise<Actor> {
  const { POST } = await import('@/app/api/auth/[...all]/route');
  const headers = { 'content-type': 'application/json', origin: TEST_ORIGIN, [PEER_ADDRESS_HEADER]: randomPeer() };
  const res = await POST(new Request(`${TEST_ORIGIN}/api/auth/sign-up/email`, { method: 'POST', headers, body: JSON.stringify({ email, password, name }) }));
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { user: { id: string } };
  const signIn = await POST(new Request(`${TEST_ORIGIN}/api/auth/sign-in/email`, { method: 'POST', headers, body: JSON.stringify({ email, password }) }));
  if (signIn.status !== 200) throw new Error(`sign-in after sign-up failed: ${signIn.status} ${await signIn.text()}`);
  return { name: email, email, userId: body.user.id, headers: { cookie: cookieOf(signIn) } };
}

/** signUp, then the account is made an admin (users.role = 'admin', as `tokenpace admin grant` does). */
export async function signUpAdmin(db: Db, email: string): Promise<Actor> {
  const admin = await signUp(email);
  await db.update(users).set({ role: 'admin' }).where(eq(users.id, admin.userId!));
  return admin;
}

/** The Cookie header value a browser would send back after this response. */
export function cookieOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => !c.endsWith('='))
    .join('; ');
}

/** Builds a request to a route with an actor's credentials. JSON bodies get the JSON content type and our origin. */
export function req(actor: Actor, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${TEST_ORIGIN}${path}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(method !== 'GET' ? { origin: TEST_ORIGIN } : {}),
      ...actor.headers,
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Route context with params, as Next passes it. */
export function params<P extends Record<string, string>>(p: P): { params: Promise<P> } {
  return { params: Promise.resolve(p) };
}

/** The body of a Node request as a web stream, read on demand; a cancelled stream drains the rest unread. */
function streamOf(req: import('node:http').IncomingMessage): ReadableStream<Uint8Array> {
  let closed = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.pause();
      req.on('data', (chunk: Buffer) => {
        if (closed) return;
        controller.enqueue(new Uint8Array(chunk));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.on('end', () => {
        if (!closed) controller.close();
        closed = true;
      });
      req.on('error', (err) => {
        if (!closed) controller.error(err);
        closed = true;
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      closed = true;
      req.resume();
    },
  });
}

/** A real HTTP server in front of route handlers (tests only), as `next start` with bin/peer-address.cjs would be. */
export interface RouteServer {
  /** http://127.0.0.1:<port> */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `handler` (a route's exported GET/POST/…) on 127.0.0.1 over real HTTP, with the peer
 * address preload (bin/peer-address.cjs) active: the handler sees `x-tokenpace-peer-address` set
 * from the socket, and any client-sent copy dropped. The request URL handed to the route keeps
 * TEST_ORIGIN (so origin checks behave as in the other tests); bodies are streamed, not buffered.
 */
export async function serveRoute(handler: (request: Request) => Promise<Response>): Promise<RouteServer> {
  const { createRequire } = await import('node:module');
  const http = await import('node:http');
  createRequire(import.meta.url)('../../../bin/peer-address.cjs');
  const server = http.createServer((req, res) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === 'string') headers.set(k, v);
      else if (Array.isArray(v)) for (const x of v) headers.append(k, x);
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`${TEST_ORIGIN}${req.url ?? '/'}`, {
      method: req.method,
      headers,
      body: hasBody ? streamOf(req) : undefined,
      ...(hasBody ? { duplex: 'half' } : {}),
    } as RequestInit);
    handler(request)
      .then(async (response) => {
        const out: Record<string, string | string[]> = {};
        response.headers.forEach((v, k) => {
          if (k !== 'set-cookie') out[k] = v;
        });
        const cookies = response.headers.getSetCookie();
        if (cookies.length) out['set-cookie'] = cookies;
        res.writeHead(response.status, out);
        res.end(Buffer.from(await response.arrayBuffer()));
      })
      .catch((err: unknown) => {
        res.writeHead(500).end(String(err));
      });
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
