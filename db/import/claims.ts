import fs from 'node:fs';
import path from 'node:path';
import { parseClaimsFile } from '@/lib/datasets/claims';
import type { Db } from '../client';
import { claims, models, providers } from '../schema';

/** Claim provider names → catalog provider slugs (names as the press wrote them). */
const PROVIDER_ALIASES: Record<string, string> = {
  nvidia: 'nvidia',
  sambanova: 'sambanova',
  amazon: 'amazon-bedrock',
  groq: 'groq',
  fireworks: 'fireworks',
  lambda: 'lambda',
  'kluster.ai': 'kluster-ai',
  centml: 'centml',
  google: 'google-vertex',
  'together ai': 'together',
  deepinfra: 'deepinfra',
  'novita ai': 'novita',
  'microsoft azure': 'azure',
  cerebras: 'cerebras',
};

/**
 * Imports a published-claims file (lib/datasets/claims format). Claims are linked to catalog
 * providers/models where the names match (the provider link is for listing only: a claim is shown
 * beside the endpoints of its `system`, decision 073), and upserted by natural key (subject,
 * metric, date, source), so re-importing is safe and a newer file fills in `system` of older rows. Throws ClaimsFormatError naming the field before writing.
 */
export async function importClaimsFile(db: Db, file: string): Promise<{ claims: number }> {
  if (!fs.existsSync(file)) throw new Error(`no such file: ${file}`);
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${path.basename(file)}: not valid JSON (${(e as Error).message})`, { cause: e });
  }
  const parsed = parseClaimsFile(json, path.basename(file));
  return db.transaction(async (tx) => {
    const providerIds = new Map((await tx.select({ id: providers.id, slug: providers.slug }).from(providers)).map((r) => [r.slug, r.id]));
    const modelIds = new Map((await tx.select({ id: models.id, slug: models.slug }).from(models)).map((r) => [r.slug, r.id]));
    for (const c of parsed.claims) {
      const providerSlug = PROVIDER_ALIASES[c.provider.toLowerCase()];
      const modelSlug = /^llama 4 maverick/i.test(c.model) ? 'llama-4-maverick' : undefined;
      const values = {
        subject: c.subject,
        providerName: c.provider,
        system: c.system,
        providerId: providerSlug ? (providerIds.get(providerSlug) ?? null) : null,
        modelName: c.model,
        modelId: modelSlug ? (modelIds.get(modelSlug) ?? null) : null,
        metric: c.metric,
        value: c.value,
        unit: c.unit,
        bound: c.bound,
        measuredBy: c.measuredBy,
        claimDate: c.date,
        sourceKey: c.sourceKey,
        sourceTitle: c.source.title,
        sourcePublisher: c.source.publisher,
        sourceUrl: c.source.url,
        note: c.note,
      };
      await tx
        .insert(claims)
        .values(values)
        .onConflictDoUpdate({ target: [claims.subject, claims.metric, claims.claimDate, claims.sourceKey], set: values });
    }
    return { claims: parsed.claims.length };
  });
}
