import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOG, CATALOG_FILES } from './catalog-data';
import { parseCatalog } from './catalog-schema';
import { SEED_ENDPOINTS, SEED_MODELS } from './seed-catalog';

const clone = <T>(v: T): T => structuredClone(v);
const groq = () =>
  clone(CATALOG_FILES.find((f) => f.name === 'groq.json')!) as {
    name: string;
    data: { endpoints: Array<Record<string, unknown>>; provider: Record<string, unknown> };
  };
const models = () => clone(CATALOG_FILES.find((f) => f.name === 'models.json')!);

/** parseCatalog's error for the catalog with `file` replaced. */
function problemsWith(file: { name: string; data: unknown }): string {
  try {
    parseCatalog(CATALOG_FILES.map((f) => (f.name === file.name ? file : f)));
  } catch (e) {
    return (e as Error).message;
  }
  return '';
}

describe('the seeded catalog (lib/catalog/data)', () => {
  it('holds at least 12 models (open-weight and proprietary) and 60 listed endpoints, each with a source URL and date', () => {
    const listed = CATALOG.endpoints.filter((e) => !e.retiredOn);
    expect(CATALOG.models.length).toBeGreaterThanOrEqual(12);
    expect(listed.length).toBeGreaterThanOrEqual(60);
    expect(CATALOG.models.some((m) => m.weights === 'open')).toBe(true);
    expect(CATALOG.models.some((m) => m.weights === 'proprietary')).toBe(true);
    for (const e of CATALOG.endpoints) {
      expect(e.source.url, e.slug).toMatch(/^https?:\/\//);
      expect(e.source.checkedOn, e.slug).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (e.pricing) {
        expect(e.pricing.source, e.slug).toMatch(/^https?:\/\//);
        expect(e.pricing.asOf, e.slug).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
    }
    for (const m of CATALOG.models) expect(m.source.url, m.slug).toMatch(/^https?:\/\//);
    // every model is served by at least one catalog endpoint; at least a dozen providers
    for (const m of CATALOG.models)
      expect(
        CATALOG.endpoints.some((e) => e.model === m.slug),
        m.slug,
      ).toBe(true);
    expect(CATALOG.providers.length).toBeGreaterThanOrEqual(12);
  });

  it('names every provider key variable in the README key table', () => {
    const readme = readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
    for (const p of CATALOG.providers) expect(readme, p.apiKeyEnv).toContain(`| ${p.name} | \`${p.apiKeyEnv}\` |`);
  });

  it('lists every data file (a file dropped in data/ but not imported would be silently missing)', () => {
    const onDisk = readdirSync(path.join(__dirname, 'data'))
      .filter((f) => f.endsWith('.json'))
      .sort();
    expect(CATALOG_FILES.map((f) => f.name).sort()).toEqual(onDisk);
  });

  it('keeps the Llama 4 Maverick endpoints of existing installs under their slugs (history stays on the same rows)', () => {
    const slugs = SEED_ENDPOINTS.filter((e) => e.modelSlug === 'llama-4-maverick').map((e) => e.slug);
    for (const s of [
      'nvidia-nim-llama-4-maverick',
      'sambanova-llama-4-maverick',
      'groq-llama-4-maverick',
      'bedrock-llama-4-maverick',
      'fireworks-llama-4-maverick',
      'lambda-llama-4-maverick',
      'kluster-llama-4-maverick',
      'centml-llama-4-maverick',
      'vertex-llama-4-maverick',
      'together-llama-4-maverick',
      'deepinfra-llama-4-maverick',
      'novita-llama-4-maverick',
      'azure-llama-4-maverick',
    ]) {
      expect(slugs).toContain(s);
    }
    expect(SEED_MODELS.map((m) => m.slug)).toContain('tokenpace-reference');
  });

  it('fails on an endpoint without a source URL, without a date, or with a date that is not one', () => {
    for (const [mutate, expected] of [
      [(e: Record<string, unknown>) => delete (e.source as Record<string, unknown>).url, /groq\.json: endpoints\.0\.source\.url/],
      [(e: Record<string, unknown>) => delete (e.source as Record<string, unknown>).checkedOn, /groq\.json: endpoints\.0\.source\.checkedOn/],
      [(e: Record<string, unknown>) => delete e.source, /groq\.json: endpoints\.0\.source/],
      [(e: Record<string, unknown>) => ((e.source as Record<string, unknown>).url = 'console.groq.com/docs/models'), /endpoints\.0\.source\.url/],
      [(e: Record<string, unknown>) => ((e.source as Record<string, unknown>).url = 'ftp://console.groq.com/docs/models'), /endpoints\.0\.source\.url/],
      [
        (e: Record<string, unknown>) => ((e.source as Record<string, unknown>).checkedOn = '2026-02-30'),
        /endpoints\.0\.source\.checkedOn: must be a real calendar date/,
      ],
      [(e: Record<string, unknown>) => ((e.source as Record<string, unknown>).checkedOn = '01/12/2026'), /endpoints\.0\.source\.checkedOn/],
      [(e: Record<string, unknown>) => delete (e.pricing as Record<string, unknown>).asOf, /endpoints\.0\.pricing\.asOf/],
      [(e: Record<string, unknown>) => delete (e.pricing as Record<string, unknown>).source, /endpoints\.0\.pricing\.source/],
      [(e: Record<string, unknown>) => (e.model = 'no-such-model'), /endpoints\.0\.model: unknown model no-such-model/],
      [(e: Record<string, unknown>) => (e.apiModelId = ''), /endpoints\.0\.apiModelId/],
      [(e: Record<string, unknown>) => (e.contextWindowTokens = 0), /endpoints\.0\.contextWindowTokens/],
      [(e: Record<string, unknown>) => (e.retiredNote = 'gone'), /endpoints\.0\.retiredNote: retiredNote needs retiredOn/],
      [(e: Record<string, unknown>) => (e.extra = 1), /endpoints\.0/],
    ] as const) {
      const f = groq();
      mutate(f.data.endpoints[0]!);
      expect(problemsWith(f)).toMatch(expected);
    }
    // at the edge: a real date (29 Feb of a leap year) and an unknown context window are accepted
    const ok = groq();
    (ok.data.endpoints[0]!.source as Record<string, unknown>).checkedOn = '2028-02-29';
    ok.data.endpoints[0]!.contextWindowTokens = null;
    ok.data.endpoints[0]!.pricing = null;
    expect(problemsWith(ok)).toBe('');
  });

  it('takes source.unverified only with a note saying what was searched (decision 224)', () => {
    const noNote = groq();
    (noNote.data.endpoints[0]!.source as Record<string, unknown>).unverified = true;
    delete (noNote.data.endpoints[0]!.source as Record<string, unknown>).note;
    expect(problemsWith(noNote)).toMatch(/groq\.json: endpoints\.0\.source\.note: an unverified source needs a note/);
    const notTrue = groq();
    (notTrue.data.endpoints[0]!.source as Record<string, unknown>).unverified = false;
    expect(problemsWith(notTrue)).toMatch(/endpoints\.0\.source\.unverified/);
    const ok = groq();
    Object.assign(ok.data.endpoints[0]!.source as Record<string, unknown>, { unverified: true, note: 'Not re-verified on 2026-12-01: nothing found.' });
    expect(problemsWith(ok)).toBe('');
  });

  it('marks the entries whose id no public copy confirmed as unverified; nothing is carried over silently', () => {
    // the re-check of 2026-12-01 (issue 27, decision 224): CentML and NVIDIA NIM had no public copy to read
    expect(
      CATALOG.endpoints
        .filter((e) => e.source.unverified)
        .map((e) => e.slug)
        .sort(),
    ).toEqual(['centml-llama-4-maverick', 'nvidia-nim-llama-4-maverick']);
    for (const e of CATALOG.endpoints) {
      // a carried-over fact is either re-read (then the note says from where) or flagged unverified
      if (/carried over/i.test(e.source.note ?? '')) expect(e.source.unverified, e.slug).toBe(true);
      if (e.source.unverified) expect(e.source.note, e.slug).toMatch(/^Not re-verified on \d{4}-\d{2}-\d{2}: /);
    }
  });

  it('keeps the Lambda endpoint retired with its history: Lambda shut its Inference API on 2025-09-25', () => {
    const e = CATALOG.endpoints.find((x) => x.slug === 'lambda-llama-4-maverick')!;
    expect(e.retiredOn).toBe('2025-09-25');
    expect(e.retiredNote).toMatch(/September 25, 2025/);
    expect(SEED_ENDPOINTS.find((x) => x.slug === 'lambda-llama-4-maverick')!.retiredOn).toBe('2025-09-25');
  });

  it('fails on duplicates: endpoint slug, (base URL, id) within a provider, model slug; and a file named unlike its provider', () => {
    const dupSlug = groq();
    dupSlug.data.endpoints.push({ ...clone(dupSlug.data.endpoints[0]!), apiModelId: 'other-id' });
    expect(problemsWith(dupSlug)).toMatch(/duplicate endpoint slug groq-llama-4-maverick/);
    const dupTarget = groq();
    dupTarget.data.endpoints.push({ ...clone(dupTarget.data.endpoints[0]!), slug: 'groq-maverick-again' });
    expect(problemsWith(dupTarget)).toMatch(/listed twice/);
    // the same id at another base URL (another region) is a different endpoint
    const otherUrl = groq();
    otherUrl.data.endpoints.push({ ...clone(otherUrl.data.endpoints[0]!), slug: 'groq-maverick-eu', baseUrl: 'https://api.eu.groq.example/openai/v1' });
    expect(problemsWith(otherUrl)).toBe('');
    const m = models() as { name: string; data: { models: unknown[] } };
    m.data.models.push(clone(m.data.models[0]));
    expect(problemsWith(m)).toMatch(/models.json: llama-4-maverick: duplicate model slug/);
    const renamed = groq();
    renamed.data.provider.slug = 'groq-cloud';
    expect(problemsWith(renamed)).toMatch(/file must be named after the provider slug/);
  });

  it('lists a service tier only with its documented parameter and a cited objective (decision 262)', () => {
    const tiers = SEED_ENDPOINTS.filter((e) => e.serviceTier);
    expect(tiers.length).toBeGreaterThan(0);
    for (const e of tiers) {
      expect(e.source.url, e.slug).toMatch(/^https:\/\//);
      if (e.tierObjective) expect(e.tierObjective.sourceUrl, e.slug).toMatch(/^https:\/\//);
    }
    // the same id at the same URL is another endpoint when it asks for another tier
    const tier = groq();
    tier.data.endpoints.push({ ...clone(tier.data.endpoints[0]!), slug: 'groq-maverick-flex', serviceTier: { parameter: 'service_tier', value: 'flex' } });
    expect(problemsWith(tier)).toBe('');
    const wrong = groq();
    wrong.data.endpoints.push({ ...clone(wrong.data.endpoints[0]!), slug: 'groq-maverick-fast', serviceTier: { parameter: 'speed', value: 'fast' } });
    expect(problemsWith(wrong)).toMatch(/serviceTier\.value: speed is not a parameter of openai-chat/);
    const uncited = groq();
    uncited.data.endpoints.push({
      ...clone(uncited.data.endpoints[0]!),
      slug: 'groq-maverick-sla',
      serviceTier: { parameter: 'service_tier', value: 'flex' },
      tierObjective: { share: 0.99, minOutputTokensPerSecond: 50 },
    });
    expect(problemsWith(uncited)).toMatch(/tierObjective\.sourceUrl/);
  });

  it('renames a provider id with one data change: same slug, new apiModelId', () => {
    const f = groq();
    f.data.endpoints[0]!.apiModelId = 'meta-llama/llama-4-maverick-renamed';
    const c = parseCatalog(CATALOG_FILES.map((x) => (x.name === f.name ? f : x)));
    const e = c.endpoints.find((x) => x.slug === 'groq-llama-4-maverick')!;
    expect(e.apiModelId).toBe('meta-llama/llama-4-maverick-renamed');
    expect(c.endpoints.length).toBe(CATALOG.endpoints.length);
  });
});
