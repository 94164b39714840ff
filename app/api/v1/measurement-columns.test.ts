/**
 * One record, one definition (issue 28 item 2, decision 281): a measurement's fields are declared
 * once, in lib/api/response-schemas `measurementSchema`. The API JSON, the CSV and the weekly dump
 * each carry exactly its column set (csvColumnsOf of that schema), read from real answers of the
 * production route handlers over a real local HTTP server and a real dump; and every column of
 * the `measurements` table is either published under its own name or named here as stored-only.
 */
import { gunzipSync } from 'node:zlib';
import { getTableColumns } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { measurements } from '@/db/schema';
import { csvColumnsOf } from '@/lib/api/csv';
import { measurementSchema } from '@/lib/api/response-schemas';
import { useServedApiData, type ServedApiData } from './test-support/use-served-api-data';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

const NOW = Date.now();
let endpointIds: number[];
let server: ServedApiData['server'];

// 8 days always cover the last complete ISO week, so the dump has rows.
useServedApiData({ now: NOW, days: 8, dump: true }, (s) => {
  ({ endpointIds, server } = s);
});

/** The one definition's columns: the schema's fields (the timeline is JSON-only, never a column). */
const DEFINED = csvColumnsOf(measurementSchema, ['timeline']).map((c) => c.name);

/** Columns of a stored measurement that are not published, and why (nothing else may be missing). */
const STORED_ONLY: Record<string, string> = {
  jobKey: 'the slot key of the job that wrote it (internal; a retried job never writes twice)',
  timeline: 'published decoded (timeline=1, /measurements/{id}), never as a CSV column',
};
/** Published fields that are not a column of the table under their own name, and where they come from. */
const DERIVED: Record<string, string> = {
  workload: 'the workload slug (join on workloadId)',
};

/** Splits one RFC 4180 line (quoted cells may hold commas and doubled quotes). */
function cells(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted && c === '"' && line[i + 1] === '"') {
      cur += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (c === ',' && !quoted) {
      out.push(cur);
      cur = '';
    } else {
      cur += c;
    }
  }
  out.push(cur);
  return out;
}

describe('a measurement has one column set', () => {
  it('the definition is flat: one column per field, named as the field', () => {
    expect(DEFINED).toEqual(Object.keys(measurementSchema.shape).filter((k) => k !== 'timeline'));
    expect(DEFINED.length).toBeGreaterThan(40);
  });

  it('API JSON items carry exactly the defined fields (plus timeline only when asked)', async () => {
    const id = endpointIds[0]!;
    const page = (await (await fetch(`${server.baseUrl}/api/v1/endpoints/${id}/measurements?limit=50`)).json()) as { items: Array<Record<string, unknown>> };
    expect(page.items.length).toBe(50);
    for (const item of page.items) expect(Object.keys(item)).toEqual(DEFINED);
    // both kinds of row are among them: a failure's null figures are present keys, not absent ones
    expect(new Set(page.items.map((i) => i.outcome))).toEqual(new Set(['success', 'error']));
    const withTimeline = (await (await fetch(`${server.baseUrl}/api/v1/endpoints/${id}/measurements?limit=1&timeline=1`)).json()) as {
      items: Array<Record<string, unknown>>;
    };
    expect(Object.keys(withTimeline.items[0]!)).toEqual([...DEFINED, 'timeline']);
    const one = (await (await fetch(`${server.baseUrl}/api/v1/measurements/${String(page.items[0]!.id)}`)).json()) as Record<string, unknown>;
    expect(Object.keys(one)).toEqual([...DEFINED, 'timeline']);
  });

  it('the CSV header is the defined columns, and every line has that many cells', async () => {
    const text = await (await fetch(`${server.baseUrl}/api/v1/endpoints/${endpointIds[1]!}/measurements.csv?limit=50`)).text();
    const lines = text.split('\r\n').filter(Boolean);
    expect(cells(lines[0]!)).toEqual(DEFINED);
    expect(lines.length).toBe(51);
    for (const line of lines.slice(1)) expect(cells(line)).toHaveLength(DEFINED.length);
  });

  it('the weekly dump header is the defined columns, and every line has that many cells', async () => {
    const list = (await (await fetch(`${server.baseUrl}/api/v1/dumps`)).json()) as { items: Array<{ url: string; rows: number }> };
    const dump = list.items[0]!;
    expect(dump.rows).toBeGreaterThan(0);
    const csv = gunzipSync(Buffer.from(await (await fetch(`${server.baseUrl}${dump.url}`)).arrayBuffer())).toString('utf8');
    const lines = csv.split('\r\n').filter(Boolean);
    expect(cells(lines[0]!)).toEqual(DEFINED);
    expect(lines.length).toBe(dump.rows + 1);
    for (const line of lines.slice(1)) expect(cells(line)).toHaveLength(DEFINED.length);
  });

  it('every stored column is published under its own name or listed as stored-only', () => {
    const stored = Object.keys(getTableColumns(measurements));
    expect(stored.filter((c) => !DEFINED.includes(c) && !(c in STORED_ONLY))).toEqual([]);
    expect(DEFINED.filter((c) => !stored.includes(c) && !(c in DERIVED))).toEqual([]);
    // the lists name nothing that does not exist
    for (const c of Object.keys(STORED_ONLY)) expect(stored).toContain(c);
    for (const c of Object.keys(DERIVED)) expect(DEFINED).toContain(c);
  });
});
