/**
 * `npm run bench:prism -- --target http://127.0.0.1:3000 [--port 4010] [--reference http://127.0.0.1:3999/v1]`
 *
 * Contract check of the submission routes against the live OpenAPI document (issue #23: "Prism
 * proxy 0 violations on the submission routes"). Fetches `<target>/api/v1/openapi.json`, starts
 * Stoplight Prism's validation proxy in front of the running install
 * (`npx --yes @stoplight/prism-cli@5.16.0 proxy <doc> <target> -p <port>`; not a dependency of
 * the project, npx fetches it from the registry once), signs up and in directly (the better-auth
 * routes are not in the document), then sends through the proxy the provider's flow: create and
 * list an API token, submit an endpoint (valid and invalid bodies, without credentials), read,
 * edit and list it, open a dispute and list disputes, withdraw it, revoke the token.
 *
 * Prism reports each disagreement between a request or response and the document in the
 * `sl-violations` header (JSON array of { location, severity, code, message }). Every response
 * violation counts; request violations count on the requests meant to be valid (on the invalid
 * bodies the document refusing them is the agreement we want, and the server's 400 is checked).
 * Prints one line per request (method, path, status, violations) and the total; exits 1 when any
 * violation counts. `--reference` is the base URL the submitted endpoint points at (the install's
 * calibration reference server, reachable when the install runs with TOKENPACE_ALLOW_PRIVATE=1).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const PRISM = '@stoplight/prism-cli@5.16.0';

interface Violation {
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

const { values: args } = parseArgs({
  options: {
    target: { type: 'string', default: 'http://127.0.0.1:3000' },
    port: { type: 'string', default: '4010' },
    reference: { type: 'string' },
  },
});
const target = args.target.replace(/\/$/, '');
const proxy = `http://127.0.0.1:${args.port}`;
const reference = args.reference ?? `http://127.0.0.1:${process.env.TOKENPACE_REFERENCE_PORT ?? '3999'}/v1`;

/** Resolves once something accepts TCP connections on 127.0.0.1:port, or rejects after `ms`. */
async function waitForPort(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.end();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`prism did not listen on ${port} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const counted: Array<{ step: string; v: Violation }> = [];
let requests = 0;
let cookie = '';

/** Sends one request through the proxy and records its counted violations; returns status and JSON. */
async function call(
  step: string,
  method: string,
  p: string,
  opts: { body?: unknown; token?: string; invalid?: boolean; session?: boolean } = {},
): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = { accept: 'application/json', origin: target };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.session !== false && !opts.token && cookie) headers.cookie = cookie;
  const res = await fetch(`${proxy}${p}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  requests++;
  const text = await res.text();
  const header = res.headers.get('sl-violations');
  const all: Violation[] = header ? JSON.parse(header) : [];
  const mine = all.filter((v) => !(opts.invalid && v.location[0] === 'request'));
  for (const v of mine) counted.push({ step, v });
  console.log(
    `${method.padEnd(6)} ${p.padEnd(44)} ${res.status}  ${mine.length} violation(s)${all.length > mine.length ? ` (+${all.length - mine.length} expected request violation(s))` : ''}  ${step}`,
  );
  for (const v of mine) console.log(`         ${v.severity} ${v.location.join('.')}: ${v.message}`);
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, json };
}

async function main(): Promise<void> {
  const docRes = await fetch(`${target}/api/v1/openapi.json`);
  if (!docRes.ok) throw new Error(`GET ${target}/api/v1/openapi.json: ${docRes.status}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prism-submission-'));
  const docPath = path.join(dir, 'openapi.json');
  fs.writeFileSync(docPath, await docRes.text());

  const prism = spawn('npx', ['--yes', PRISM, 'proxy', docPath, target, '-p', args.port, '-h', '127.0.0.1'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let prismErr = '';
  prism.stderr.on('data', (d: Buffer) => {
    prismErr += d.toString();
  });
  try {
    await waitForPort(Number(args.port), 120_000);

    // Sign up and in directly (better-auth routes are not part of the document).
    const email = `prism-${Date.now()}@example.com`;
    const password = `Prism-check-${Date.now()}-pw!`;
    const authHeaders = { 'content-type': 'application/json', origin: target };
    const up = await fetch(`${target}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: authHeaders,
      body: JSON.stringify({ email, password, name: 'Prism check' }),
    });
    if (up.status !== 200) throw new Error(`sign-up: ${up.status} ${await up.text()}`);
    const inRes = await fetch(`${target}/api/auth/sign-in/email`, { method: 'POST', headers: authHeaders, body: JSON.stringify({ email, password }) });
    if (inRes.status !== 200) throw new Error(`sign-in: ${inRes.status} ${await inRes.text()}`);
    cookie = inRes.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');

    const models = await call('listed models', 'GET', '/api/v1/models');
    const model = (models.json?.items?.[0]?.slug as string | undefined) ?? 'llama-4-maverick';

    const tok = await call('create token', 'POST', '/api/v1/tokens', { body: { name: 'prism check' } });
    const token = tok.json?.token as string;
    if (tok.status !== 201 || !token) throw new Error(`token not created: ${tok.status}`);
    await call('create token: invalid body', 'POST', '/api/v1/tokens', { body: { name: '' }, invalid: true });
    await call('list tokens', 'GET', '/api/v1/tokens');

    const valid = {
      provider: `Prism Check ${Date.now() % 100000}`,
      model,
      baseUrl: reference,
      protocol: 'openai-chat',
      apiModelId: 'tokenpace-reference',
      deploymentKind: 'self-hosted',
      system: 'Tokenpace reference server, one process',
      contextWindowTokens: 131072,
      hardware: 'CPU',
      contact: 'prism@example.com',
      notes: 'contract check',
      pricing: {
        inputUsdPerMTokens: 0.1,
        outputUsdPerMTokens: 0.3,
        cachedInputUsdPerMTokens: null,
        currency: 'USD',
        source: 'https://example.com/pricing',
        asOf: '2026-11-01',
      },
    };
    await call('submit: no credentials', 'POST', '/api/v1/endpoints', { body: valid, session: false, invalid: true });
    await call('submit: empty body', 'POST', '/api/v1/endpoints', { body: {}, token, invalid: true });
    await call('submit: bad fields', 'POST', '/api/v1/endpoints', {
      body: { ...valid, protocol: 'smtp', deploymentKind: 'cloud', draftLength: 0 },
      token,
      invalid: true,
    });
    await call('submit: ftp URL', 'POST', '/api/v1/endpoints', { body: { ...valid, baseUrl: 'ftp://example.com/v1' }, token, invalid: true });
    await call('submit: unknown field', 'POST', '/api/v1/endpoints', { body: { ...valid, extra: 1 }, token, invalid: true });
    await call('submit: unknown model', 'POST', '/api/v1/endpoints', { body: { ...valid, model: 'no-such-model' }, token });
    const sub = await call('submit: valid', 'POST', '/api/v1/endpoints', { body: valid, token });
    const id = sub.json?.endpoint?.id ?? sub.json?.id;
    if (sub.status !== 201 || typeof id !== 'number') throw new Error(`submission not created: ${sub.status} ${JSON.stringify(sub.json)}`);
    console.log(`         verification probe: ${sub.json.verification?.outcome ?? 'none'} ${sub.json.verification?.errorKind ?? ''}`);
    const proposed = await call('submit: proposed model', 'POST', '/api/v1/endpoints', {
      body: { ...valid, model: undefined, proposedModel: 'Prism Check Model', pricing: undefined, system: undefined },
      token,
    });
    const proposedId = proposed.json?.endpoint?.id ?? proposed.json?.id;

    await call('read own endpoint', 'GET', `/api/v1/endpoints/${id}`, { token });
    await call('read own endpoint: no credentials', 'GET', `/api/v1/endpoints/${id}`, { session: false });
    await call('read unknown endpoint', 'GET', '/api/v1/endpoints/999999999', { token });
    await call('edit: metadata', 'PATCH', `/api/v1/endpoints/${id}`, {
      body: { notes: 'edited by the contract check', hardware: null, contextWindowTokens: 65536 },
      token,
    });
    await call('edit: target', 'PATCH', `/api/v1/endpoints/${id}`, { body: { apiModelId: 'tokenpace-reference' }, token });
    await call('edit: nothing', 'PATCH', `/api/v1/endpoints/${id}`, { body: {}, token, invalid: true });
    await call('edit: bad field', 'PATCH', `/api/v1/endpoints/${id}`, { body: { status: 'deleted' }, token, invalid: true });
    await call('edit: pause a pending endpoint', 'PATCH', `/api/v1/endpoints/${id}`, { body: { status: 'paused' }, token });
    await call('revisions', 'GET', `/api/v1/endpoints/${id}/revisions`);
    await call('own endpoints', 'GET', '/api/v1/submissions', { token });
    await call('own endpoints: session', 'GET', '/api/v1/submissions');
    await call('own endpoints: no credentials', 'GET', '/api/v1/submissions', { session: false, invalid: true });

    const now = Date.now();
    await call('dispute: window', 'POST', `/api/v1/endpoints/${id}/disputes`, {
      body: { scope: 'window', from: new Date(now - 3600_000).toISOString(), until: new Date(now).toISOString(), reason: 'contract check: a window dispute' },
      token,
    });
    await call('dispute: invalid body', 'POST', `/api/v1/endpoints/${id}/disputes`, { body: { scope: 'everything' }, token, invalid: true });
    await call('disputes of the endpoint', 'GET', `/api/v1/disputes?endpoint=${id}`);
    await call('disputes', 'GET', '/api/v1/disputes');

    if (typeof proposedId === 'number') await call('withdraw', 'DELETE', `/api/v1/endpoints/${proposedId}`, { token });
    await call('withdraw unknown', 'DELETE', '/api/v1/endpoints/999999999', { token });
    await call('revoke token', 'DELETE', `/api/v1/tokens/${tok.json.id}`);
    await call('revoked token refused', 'GET', '/api/v1/submissions', { token });
  } finally {
    try {
      process.kill(-prism.pid!, 'SIGTERM');
    } catch {
      /* already gone */
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\n${requests} requests through Prism ${PRISM.split('@')[2]}, ${counted.length} violation(s)`);
  if (counted.length > 0) {
    if (prismErr.trim()) console.error(prismErr.trim().split('\n').slice(-5).join('\n'));
    process.exitCode = 1;
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
