import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClaimsFormatError, parseClaimsFile } from './claims';
import { FIXTURES_DIR } from './paths';

const FILE = 'published-claims-2025-05.json';
const load = (): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, 'claims', FILE), 'utf8')) as Record<string, unknown>;

describe('parseClaimsFile on the May 2025 claims', () => {
  const parsed = parseClaimsFile(load(), FILE);
  it('reads all 16 claims and both sources', () => {
    expect(parsed.claims).toHaveLength(16);
    expect(Object.keys(parsed.sources).sort()).toEqual(['insidehpc-2025-05', 'tomshardware-2025-05']);
    expect(parsed.about).toMatch(/CLAIMS/);
  });
  it('normalises the DGX B200 record claim', () => {
    expect(parsed.claims[0]).toMatchObject({
      index: 0,
      provider: 'NVIDIA',
      metric: 'output_speed_tps_per_user',
      value: 1038,
      unit: 'tokens/s',
      bound: 'eq',
      measuredBy: 'Artificial Analysis',
      date: '2025-05-23',
      datePrecision: 'day',
      sourceKey: 'tomshardware-2025-05',
      note: null,
    });
    expect(parsed.claims[0]!.source.publisher).toBe("Tom's Hardware");
    expect(parsed.claims[0]!.source.url).toBeNull();
  });
  it('keeps bounds, month-precision dates and ratio units', () => {
    const fireworks = parsed.claims.find((c) => c.provider === 'Fireworks')!;
    expect(fireworks).toMatchObject({ value: 200, bound: 'lt', date: '2025-05', datePrecision: 'month' });
    expect(parsed.claims.filter((c) => c.bound === 'approx').map((c) => c.provider)).toEqual(['Amazon', 'Groq', 'NVIDIA']);
    const spec = parsed.claims.find((c) => c.metric === 'speculative_decoding_speedup')!;
    expect(spec).toMatchObject({ value: 2.06, unit: 'ratio', measuredBy: 'NVIDIA (self-reported)', sourceKey: 'insidehpc-2025-05' });
    expect(spec.source.url).toMatch(/^https:\/\/insidehpc\.com\//);
  });
});

describe('parseClaimsFile errors name file and field', () => {
  const withClaim = (i: number, patch: Record<string, unknown>): Record<string, unknown> => {
    const json = load();
    const claims = [...(json.claims as Record<string, unknown>[])];
    claims[i] = { ...claims[i], ...patch };
    return { ...json, claims };
  };
  it('bad bound', () => {
    expect(() => parseClaimsFile(withClaim(4, { bound: 'below' }), FILE)).toThrow(ClaimsFormatError);
    expect(() => parseClaimsFile(withClaim(4, { bound: 'below' }), FILE)).toThrow(/published-claims-2025-05\.json: field claims\[4\]\.bound/);
  });
  it('non-numeric value, bad date, missing field', () => {
    expect(() => parseClaimsFile(withClaim(1, { value: '792' }), FILE)).toThrow(/claims\[1\]\.value/);
    expect(() => parseClaimsFile(withClaim(1, { date: 'May 2025' }), FILE)).toThrow(/claims\[1\]\.date/);
    expect(() => parseClaimsFile(withClaim(2, { measured_by: undefined }), FILE)).toThrow(/claims\[2\]\.measured_by/);
  });
  it('unknown source key', () => {
    expect(() => parseClaimsFile(withClaim(3, { source: 'nowhere' }), FILE)).toThrow(/claims\[3\]\.source: unknown source key "nowhere"/);
  });
  it('metric without a known unit unless the claim gives one', () => {
    expect(() => parseClaimsFile(withClaim(0, { metric: 'joules_per_token' }), FILE)).toThrow(/claims\[0\]\.unit/);
    expect(parseClaimsFile(withClaim(0, { metric: 'joules_per_token', unit: 'J/token' }), FILE).claims[0]!.unit).toBe('J/token');
  });
  it('not an object / missing sources', () => {
    expect(() => parseClaimsFile([], FILE)).toThrow(/field \(root\)/);
    expect(() => parseClaimsFile({ about: 'x', claims: [] }, FILE)).toThrow(/field sources/);
  });
});
