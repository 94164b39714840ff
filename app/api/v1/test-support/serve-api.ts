/**
 * Test support (vitest only): a real HTTP server on 127.0.0.1 that routes requests to the app's
 * route handler modules the way Next's App Router does for app/api (static segments before dynamic
 * ones, catch-all last), so shell steps (curl, python3) can be run against the API in a test. Not
 * Next itself: no proxy, no rendering; the handlers are the production ones.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { importRoute, listApiRoutes } from '@/app/api/test-support/route-catalog';

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

interface CompiledRoute {
  file: string;
  regex: RegExp;
  names: Array<{ name: string; catchAll: boolean }>;
  rank: number[];
}

function compile(pattern: string, file: string): CompiledRoute {
  const names: CompiledRoute['names'] = [];
  const rank: number[] = [];
  const body = pattern
    .split('/')
    .filter(Boolean)
    .map((seg) => {
      const m = /^\[(\.\.\.)?([^\]]+)\]$/.exec(seg);
      if (!m) {
        rank.push(0);
        return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      }
      names.push({ name: m[2]!, catchAll: Boolean(m[1]) });
      rank.push(m[1] ? 2 : 1);
      return m[1] ? '(.+)' : '([^/]+)';
    })
    .join('/');
  return { file, regex: new RegExp(`^/${body}$`), names, rank };
}

/** Static segments win over dynamic ones, dynamic over catch-all, segment by segment from the left. */
function compareRoutes(a: CompiledRoute, b: CompiledRoute): number {
  for (let i = 0; i < Math.max(a.rank.length, b.rank.length); i++) {
    const d = (a.rank[i] ?? -1) - (b.rank[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

/** The rewrites of next.config.ts, so shell steps can use the public paths. */
const REWRITES: Record<string, string> = { '/.well-known/tokenpace-keys.json': '/api/v1/signing-keys' };

/** Starts the server; returns its base URL and a close function. */
export async function serveApi(): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const routes = listApiRoutes()
    .map((r) => compile(r.pattern, r.file))
    .sort(compareRoutes);
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      url.pathname = REWRITES[url.pathname] ?? url.pathname;
      const route = routes.find((r) => r.regex.test(url.pathname));
      if (!route) {
        res.writeHead(404).end();
        return;
      }
      const m = route.regex.exec(url.pathname)!;
      const params: Record<string, string | string[]> = {};
      route.names.forEach((n, i) => {
        const v = decodeURIComponent(m[i + 1]!);
        params[n.name] = n.catchAll ? v.split('/') : v;
      });
      const mod = await importRoute(route.file);
      const handler = mod[req.method ?? 'GET'] as Handler | undefined;
      if (!handler) {
        res.writeHead(405).end();
        return;
      }
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const request = new Request(`http://127.0.0.1${url.pathname}${url.search}`, {
        method: req.method,
        headers,
        ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
      } as RequestInit);
      const response = await handler(request, { params: Promise.resolve(params) });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body && req.method !== 'HEAD') Readable.fromWeb(response.body as never).pipe(res);
      else res.end();
    } catch (err) {
      res.writeHead(599, { 'content-type': 'text/plain' }).end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
