/**
 * Column sets that several endpoint questions select (catalog, leaderboard, submissions), declared
 * once so every surface names and computes them alike. Each needs `providers` and `models` joined.
 */
import { sql } from 'drizzle-orm';
import { endpoints, models, providers } from '../schema';

/** Who and what: the endpoint's id and slug with its provider's and model's name and slug. */
export const endpointNameColumns = {
  id: endpoints.id,
  slug: endpoints.slug,
  provider: providers.name,
  providerSlug: providers.slug,
  model: models.name,
  modelSlug: models.slug,
};

/** A provider as the catalogue lists it: id, slug, name, kind (provider or calibration) and website. */
export const providerColumns = {
  id: providers.id,
  slug: providers.slug,
  name: providers.name,
  kind: providers.kind,
  websiteUrl: providers.websiteUrl,
};

/** How it is served, as declared: hardware, engine, precision, speculative decoding, deployment kind. */
export const endpointDeploymentColumns = {
  hardware: endpoints.hardware,
  engine: endpoints.engine,
  precision: endpoints.precision,
  speculativeDecoding: endpoints.speculativeDecoding,
  deploymentKind: endpoints.deploymentKind,
};

/** (3 × input + 1 × output) ÷ 4 USD per million tokens, rounded to 1e-6 like lib/catalog/pricing blendedUsdPerMTokens (in numeric: float8 would publish 0.30000000000000004); null without pricing. */
export const blendedUsdPerMTokensSql = sql<
  number | null
>`round(((${endpoints.pricing}->>'inputUsdPerMTokens')::numeric * 3 + (${endpoints.pricing}->>'outputUsdPerMTokens')::numeric) / 4, 6)::float8`;
