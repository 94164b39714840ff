/**
 * The public API's answers to bad and unknown input, table-driven, over real HTTP (the production
 * route handlers behind a local server that routes like the App Router, catch-all included):
 * unknown model/workload/provider/endpoint/measurement/dump → 404 naming the field (and no snapshot
 * stored), unknown /api/v1 routes → 404 JSON, bad or out-of-range `at`/`window`/cursor → 400 naming
 * the field. Also: measurement pages follow a stable keyset order with filters, and every CSV has
 * every JSON figure under the JSON field's dotted path with the same value.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it, vi } from 'vitest';
import type { TestDatabase } from '@/db/test-support/test-database';
import { useServedApiData, type ServedApiData } from './test-support/use-served-api-data';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

const NOW = Date.now();
let t: TestDatabase;
let endpointId: number;
let server: ServedApiData['server'];

useServedApiData({ now: NOW, days: 9, dump: true }, (s) => {
  ({ t, server } = s);
  endpointId = s.endpointIds[0]!;
});

const get = (path: string, init?: RequestInit) => fetch(`${server.baseUrl}${path.replace('{endpoint}', String(endpointId))}`, init);
const snapshotCount = async () => Number((await t.sql`select count(*)::int as n from snapshots`)[0]!.n);

describe('errors: one JSON shape, the right status, the field named', () => {
  const future = new Date(NOW + 86400_000).toISOString();
  const CASES: Array<[string, number, string | undefined, string?]> = [
    // [path, status, error.field, method]
    ['/api/v1/leaderboard?model=no-such-model', 404, 'model'],
    ['/api/v1/leaderboard?workload=no-such-workload', 404, 'workload'],
    // issue 23: a region no worker ever measured from is unknown, like a model (was 200 with an empty board)
    ['/api/v1/leaderboard?region=nowhere', 404, 'region'],
    ['/api/v1/leaderboard.csv?region=nowhere', 404, 'region'],
    ['/api/v1/history?region=nowhere', 404, 'region'],
    ['/api/v1/endpoints/{endpoint}/history?region=nowhere', 404, 'region'],
    ['/api/v1/endpoints/{endpoint}/uptime?region=nowhere', 404, 'region'],
    ['/api/v1/leaderboard.csv?model=no-such-model', 404, 'model'],
    ['/api/v1/leaderboard?at=0001-01-01T00:00:00Z', 400, 'at'],
    ['/api/v1/leaderboard?at=1999-12-31T23:59:59Z', 400, 'at'],
    [`/api/v1/leaderboard?at=${future}`, 400, 'at'],
    ['/api/v1/leaderboard?at=yesterday', 400, 'at'],
    ['/api/v1/leaderboard?window=3%20days', 400, 'window'],
    ['/api/v1/leaderboard?window=0h', 400, 'window'],
    ['/api/v1/leaderboard?window=400d', 400, 'window'],
    ['/api/v1/endpoints?model=no-such-model', 404, 'model'],
    ['/api/v1/endpoints?provider=no-such-provider', 404, 'provider'],
    ['/api/v1/endpoints.csv?provider=no-such-provider', 404, 'provider'],
    ['/api/v1/claims?model=no-such-model', 404, 'model'],
    ['/api/v1/history?model=no-such-model', 404, 'model'],
    ['/api/v1/history?workload=no-such-workload', 404, 'workload'],
    ['/api/v1/history?at=0001-01-01T00:00:00Z', 400, 'at'],
    [`/api/v1/history?at=${future}`, 400, 'at'],
    ['/api/v1/history?window=72h&range=30d', 400, 'range'],
    ['/api/v1/history?range=12d', 400, 'range'],
    ['/api/v1/endpoints/999999', 404, 'id'],
    ['/api/v1/endpoints/abc', 400, 'id'],
    ['/api/v1/endpoints/999999/history', 404, 'id'],
    ['/api/v1/endpoints/{endpoint}/history?workload=no-such-workload', 404, 'workload'],
    ['/api/v1/endpoints/{endpoint}/history?at=0001-01-01T00:00:00Z', 400, 'at'],
    ['/api/v1/endpoints/{endpoint}/history.csv?window=forever', 400, 'window'],
    ['/api/v1/endpoints/999999/measurements', 404, 'id'],
    ['/api/v1/endpoints/{endpoint}/measurements?workload=no-such-workload', 404, 'workload'],
    ['/api/v1/endpoints/{endpoint}/measurements?cursor=abc', 400, 'cursor'],
    // issue 19 #10: cursors that look right but overflow the database (were 500 with a stack in the log)
    ['/api/v1/endpoints/{endpoint}/measurements?cursor=9999999999999999999.1', 400, 'cursor'],
    ['/api/v1/endpoints/{endpoint}/measurements?cursor=253402300800000000.1', 400, 'cursor'],
    ['/api/v1/endpoints/{endpoint}/measurements?cursor=1.9999999999999999999', 400, 'cursor'],
    ['/api/v1/endpoints/{endpoint}/measurements?cursor=1.0', 400, 'cursor'],
    ['/api/v1/endpoints/{endpoint}/measurements?cursor=-1.1', 400, 'cursor'],
    ['/api/v1/endpoints/{endpoint}/measurements?cursor=1.1%00', 400, 'cursor'],
    ['/api/v1/endpoints/{endpoint}/measurements.csv?cursor=9999999999999999999.9999999999999999999', 400, 'cursor'],
    ['/api/v1/endpoints/{endpoint}/measurements?since=monday', 400, 'since'],
    ['/api/v1/endpoints/{endpoint}/measurements?until=0001-01-01T00:00:00Z', 400, 'until'],
    ['/api/v1/endpoints/{endpoint}/measurements?outcome=maybe', 400, 'outcome'],
    ['/api/v1/endpoints/{endpoint}/measurements?limit=0', 400, 'limit'],
    ['/api/v1/endpoints/{endpoint}/measurements.csv?limit=5001', 400, 'limit'],
    ['/api/v1/measurements/999999999', 404, 'id'],
    ['/api/v1/measurements/-1', 400, 'id'],
    ['/api/v1/dumps/999999/manifest.json', 404, 'id'],
    ['/api/v1/dumps/999999/measurements.csv.gz', 404, 'id'],
    ['/api/v1/dumps/x/measurements.csv.gz', 400, 'id'],
    ['/api/v1/dumps?format=zip', 400, 'format'],
    ['/api/v1/no-such-route', 404, 'path'],
    ['/api/v1/endpoints/{endpoint}/no-such-thing', 404, 'path'],
    ['/api/v1/leaderboard/extra/segments', 404, 'path'],
    ['/api/v1/no-such-route', 404, 'path', 'POST'],
    ['/api/v1/no-such-route', 404, 'path', 'DELETE'],
  ];
  for (const [path, status, field, method] of CASES) {
    it(`${method ?? 'GET'} ${path} → ${status} ${field ?? ''}`, async () => {
      const before = await snapshotCount();
      const res = await get(path, { method: method ?? 'GET' });
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await res.json()) as { error: { code: string; message: string; field?: string } };
      expect(body.error.code).toBe(status === 404 ? 'not_found' : 'bad_request');
      expect(body.error.message.length).toBeGreaterThan(5);
      expect(body.error.field).toBe(field);
      // A refused question stores no snapshot.
      expect(await snapshotCount()).toBe(before);
    });
  }

  it('known names still answer 200 (the table is not vacuous)', async () => {
    for (const path of [
      '/api/v1/leaderboard?model=llama-4-maverick&workload=code-1k',
      '/api/v1/endpoints?provider=groq',
      '/api/v1/history?window=72h',
      '/api/v1/endpoints/{endpoint}/history?window=72h&at=2026-01-01T00:00:00Z',
      '/api/v1/dumps',
    ]) {
      expect((await get(path)).status, path).toBe(200);
    }
  });
});

describe('measurements: keyset pages and filters', () => {
  type Page = {
    items: Array<{ id: number; measuredAt: string; workload: string; outcome: string; endpointId: number; rankable: boolean; notRankableReasons: string[] }>;
    nextCursor: string | null;
  };

  it('pages are disjoint, in (measuredAt, id) descending order, and together equal one big page', async () => {
    const since = new Date(NOW - 2 * 86400_000).toISOString();
    const base = `/api/v1/endpoints/{endpoint}/measurements?workload=prose-1k&since=${since}`;
    const all = (await (await get(`${base}&limit=5000`)).json()) as Page;
    expect(all.nextCursor).toBeNull();
    expect(all.items.length).toBeGreaterThan(100);
    const seen: Page['items'] = [];
    let cursor: string | null = null;
    do {
      const page = (await (await get(`${base}&limit=37${cursor ? `&cursor=${cursor}` : ''}`)).json()) as Page;
      seen.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.map((m) => m.id)).toEqual(all.items.map((m) => m.id));
    for (let i = 1; i < seen.length; i++) expect(Date.parse(seen[i - 1]!.measuredAt)).toBeGreaterThanOrEqual(Date.parse(seen[i]!.measuredAt));
    for (const m of seen) {
      expect(m.workload).toBe('prose-1k');
      expect(m.endpointId).toBe(endpointId);
      expect(Date.parse(m.measuredAt)).toBeGreaterThanOrEqual(Date.parse(since));
      expect(m.rankable).toBe(m.notRankableReasons.length === 0);
    }
  });

  it('CSV pages carry the next cursor in X-Next-Cursor and Link; outcome and until filter', async () => {
    const until = new Date(NOW - 86400_000).toISOString();
    const first = await get(`/api/v1/endpoints/{endpoint}/measurements.csv?outcome=error&until=${until}&limit=3`);
    const cursor = first.headers.get('x-next-cursor');
    expect(cursor).toMatch(/^\d+\.\d+$/);
    expect(first.headers.get('link')).toContain(`cursor=${cursor}`);
    const json = (await (await get(`/api/v1/endpoints/{endpoint}/measurements?outcome=error&until=${until}&limit=500`)).json()) as Page;
    expect(json.items.length).toBeGreaterThan(3);
    for (const m of json.items) {
      expect(m.outcome).toBe('error');
      expect(Date.parse(m.measuredAt)).toBeLessThanOrEqual(Date.parse(until));
    }
  });

  it('one measurement with its decoded timeline', async () => {
    const page = (await (await get('/api/v1/endpoints/{endpoint}/measurements?outcome=success&limit=1')).json()) as Page;
    const one = (await (await get(`/api/v1/measurements/${page.items[0]!.id}`)).json()) as {
      id: number;
      timeline: Array<{ atMs: number; tokens: number; channel: string }>;
    };
    expect(one.id).toBe(page.items[0]!.id);
    expect(one.timeline).toHaveLength(20);
    expect(one.timeline[0]).toEqual({ atMs: 150, tokens: 1, channel: 'answer' });
  });
});

describe('CSV = JSON: every figure, the same names and values', () => {
  /** Leaf paths and values of a JSON item (arrays of scalars joined with ';'; arrays of objects skipped). */
  function leaves(v: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      for (const [k, x] of Object.entries(v)) leaves(x, prefix ? `${prefix}.${k}` : k, out);
    } else if (Array.isArray(v)) {
      if (v.every((x) => x === null || typeof x !== 'object')) out.set(prefix, v.join(';'));
    } else out.set(prefix, v === null || v === undefined ? '' : String(v));
    return out;
  }
  const ROUTES: Array<[json: string, csv: string, list: (body: Record<string, unknown>) => unknown[]]> = [
    ['/api/v1/leaderboard?window=72h', '/api/v1/leaderboard.csv?window=72h', (b) => b.entries as unknown[]],
    ['/api/v1/endpoints/{endpoint}/measurements?limit=50', '/api/v1/endpoints/{endpoint}/measurements.csv?limit=50', (b) => b.items as unknown[]],
    [
      '/api/v1/endpoints/{endpoint}/history?window=3d&granularity=hour',
      '/api/v1/endpoints/{endpoint}/history.csv?window=3d&granularity=hour',
      (b) => b.series as unknown[],
    ],
    ['/api/v1/models', '/api/v1/models.csv', (b) => b.items as unknown[]],
    ['/api/v1/providers', '/api/v1/providers.csv', (b) => b.items as unknown[]],
    ['/api/v1/endpoints?model=llama-4-maverick', '/api/v1/endpoints.csv?model=llama-4-maverick', (b) => b.items as unknown[]],
  ];
  for (const [jsonPath, csvPath, list] of ROUTES) {
    it(`${csvPath} has every figure of ${jsonPath}`, async () => {
      const body = (await (await get(jsonPath)).json()) as Record<string, unknown>;
      const items = list(body);
      expect(items.length).toBeGreaterThan(0);
      const [header, ...rows] = parse(await (await get(csvPath)).text()) as string[][];
      expect(rows).toHaveLength(items.length);
      items.forEach((item, i) => {
        const row = new Map(header!.map((h, k) => [h, rows[i]![k]!]));
        for (const [p, value] of leaves(item)) {
          if (row.has(p)) {
            expect(row.get(p), `${csvPath} row ${i} ${p}`).toBe(value);
            continue;
          }
          // A null object (percentiles without samples) is empty cells under its path.
          const under = [...row.keys()].filter((h) => h.startsWith(`${p}.`));
          if (value === '' && under.length > 0) {
            for (const h of under) expect(row.get(h), `${csvPath} row ${i} ${h}`).toBe('');
            continue;
          }
          // A record with free keys (flags, evidence) is one cell of JSON text under its own path.
          const parts = p.split('.');
          const at = parts.findIndex((_, k) => row.has(parts.slice(0, k + 1).join('.')));
          expect(at, `${csvPath}: no column for ${p}`).toBeGreaterThanOrEqual(0);
          const cell = JSON.parse(row.get(parts.slice(0, at + 1).join('.'))!) as unknown;
          expect(String(parts.slice(at + 1).reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], cell)), `${csvPath} row ${i} ${p}`).toBe(value);
        }
      });
    });
  }

  it('the leaderboard CSV names the figures the issue asked for', async () => {
    const header = (await (await get('/api/v1/leaderboard.csv')).text()).split('\r\n')[0]!.split(',');
    for (const col of [
      'rank',
      'band',
      'endpoint.id',
      'endpoint.region',
      'outputTokensPerSecond.p50',
      'ttftMs.p5',
      'ttftMs.p95',
      'successRateInterval.low',
      'successRateInterval.high',
      'errorKinds.timeout',
      'lastMeasuredAt',
      'asOf',
      'window',
      'snapshotId',
    ]) {
      expect(header, col).toContain(col);
    }
  });
});

describe('a known region (issue 23)', () => {
  it('region=local (measured there) answers 200 on the board, history and uptime', async () => {
    for (const p of ['/api/v1/leaderboard?region=local', '/api/v1/history?region=local', '/api/v1/endpoints/{endpoint}/uptime?region=local']) {
      expect((await get(p)).status, p).toBe(200);
    }
  });
});
