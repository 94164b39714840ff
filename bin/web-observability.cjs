/**
 * Preloaded into the web process (`node --require bin/web-observability.cjs next start`, see
 * cli/start-command.ts). Next gives no hook around a whole request, so this wraps the HTTP
 * server's 'request' event once for every route, page or handler alike:
 * - request id: a well-formed incoming `X-Request-Id` (1–128 of [A-Za-z0-9._-]) is kept, otherwise
 *   a random UUID; it is set on the request headers (route handlers read `x-request-id`) and on
 *   the response;
 * - metrics: `tokenpace_http_request_duration_seconds{route, method, status}` (prom-client
 *   histogram) where `route` is the Next route pattern (`/api/v1/endpoints/[id]`) looked up in the
 *   build's routes-manifest.json, never the raw path (bounded label values); plus the Node default
 *   metrics (`tokenpace_process_*`, `tokenpace_nodejs_*`, event-loop delay). The registry is left on
 *   globalThis[Symbol.for('tokenpace.webMetrics')] for app/metrics/route.ts;
 * - one structured JSON access-log line per request (pino; static assets skipped), no query string,
 *   no headers, so no secret reaches the log.
 */
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const KEY = Symbol.for('tokenpace.webMetrics');

if (!globalThis[KEY]) {
  const client = require('prom-client');
  const pino = require('pino');
  const register = new client.Registry();
  register.setDefaultLabels({ process: 'web', instance: `${os.hostname()}:${process.pid}` });
  client.collectDefaultMetrics({ register, prefix: 'tokenpace_', eventLoopMonitoringPrecision: 20 });
  const duration = new client.Histogram({
    name: 'tokenpace_http_request_duration_seconds',
    help: 'Web request durations (request received to response finished), by Next route pattern, method and status.',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [register],
  });
  globalThis[KEY] = register;
  const log = pino({ base: { process: 'web', pid: process.pid }, formatters: { level: (label) => ({ level: label }) } });

  let routes = null;
  const loadRoutes = () => {
    if (routes) return routes;
    const distDir = process.env.TOKENPACE_NEXT_DIST_DIR || '.next';
    try {
      const manifest = JSON.parse(fs.readFileSync(path.resolve(distDir, 'routes-manifest.json'), 'utf8'));
      routes = [...(manifest.staticRoutes || []), ...(manifest.dynamicRoutes || [])]
        .filter((r) => r && r.page && r.regex)
        .map((r) => ({ page: r.page, regex: new RegExp(r.regex) }));
    } catch {
      routes = [];
    }
    return routes;
  };
  const routeOf = (pathname) => {
    if (pathname.startsWith('/_next/static/')) return '/_next/static';
    if (pathname.startsWith('/_next/')) return '/_next';
    for (const r of loadRoutes()) if (r.regex.test(pathname)) return r.page;
    return 'unmatched';
  };
  const ID_RE = /^[A-Za-z0-9._-]{1,128}$/;

  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function emitObserved(event, req, res) {
    if (event === 'request' && req && res && req.headers) {
      const started = process.hrtime.bigint();
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && ID_RE.test(incoming) ? incoming : crypto.randomUUID();
      req.headers['x-request-id'] = id;
      try {
        res.setHeader('x-request-id', id);
      } catch {
        // headers already sent by an upgrade path: nothing to add
      }
      const pathname = String(req.url || '/').split('?')[0];
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const route = routeOf(pathname);
        const status = String(res.statusCode);
        duration.observe({ route, method: req.method || 'GET', status }, seconds);
        if (!route.startsWith('/_next')) {
          log.info(
            { reqId: id, method: req.method, route, path: pathname.slice(0, 200), status: res.statusCode, durationMs: Math.round(seconds * 10_000) / 10 },
            'request',
          );
        }
      };
      res.once('finish', finish);
      res.once('close', finish);
    }
    return emit.apply(this, arguments);
  };
}
