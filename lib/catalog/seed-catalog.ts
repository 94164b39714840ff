/**
 * The seeded catalog, derived from the reviewed data files (lib/catalog/data/*.json, validated by
 * lib/catalog/catalog-schema): providers, models (one per set of weights, decision 221) and one
 * endpoint per provider that documents serving a model, each fact with its source URL and date
 * (decision 220). An endpoint is active only when its provider's API key variable is set; a
 * provider that renames a model id needs one change (its `apiModelId`) in its data file.
 */
import type { ServiceTierDeclaration, TierObjective } from '@/lib/probe/service-tier';
import type { Protocol } from '@/lib/probe/types';
import type { EndpointPricing } from './pricing';
import type { CatalogSource } from './catalog-schema';
import { CATALOG } from './catalog-data';
import { deploymentOf } from './endpoint-deployment';

export interface SeedProvider {
  slug: string;
  name: string;
  websiteUrl: string;
}

export interface SeedEndpoint {
  slug: string;
  providerSlug: string;
  modelSlug: string;
  protocol: Protocol;
  /** May contain ${VAR} placeholders filled from the environment at seed time (e.g. Azure resource). */
  baseUrl: string;
  apiModelId: string;
  /** Environment variable holding the API key; the endpoint is active only when it is set. */
  apiKeyEnv: string;
  hardware: string | null;
  engine: string | null;
  precision: string | null;
  speculativeDecoding: string | null;
  deploymentKind: 'shared' | 'dedicated' | 'self-hosted';
  region: string | null;
  /**
   * The serving system this endpoint is, in the words the published claims use
   * (lib/datasets/data/published-claims-2025.json `system`): a claim is drawn beside the endpoints
   * of its system only (decision 073).
   */
  system: string;
  /** Declared context window, tokens; null = unknown. */
  contextWindowTokens: number | null;
  /** Published price with its source and date; null = unknown. */
  pricing: EndpointPricing | null;
  /** Where the endpoint's facts were read. */
  source: CatalogSource;
  /** Date the provider retired the id (YYYY-MM-DD); the endpoint is then listed as retired and never probed. */
  retiredOn: string | null;
  /** Headers added to this endpoint's probes (lib/probe/probe-headers, decision 174); null = none. */
  probeHeaders: Record<string, string> | null;
  /** The service tier the endpoint asks for (decision 262); null = the default tier. */
  serviceTier: ServiceTierDeclaration | null;
  /** The provider's published objective for the tier, with its source; null = none published. */
  tierObjective: TierObjective | null;
}

/** A seeded model row (models table). `weights`/`creator`/`weightsUrl` are null for the calibration model. */
export interface SeedModel {
  slug: string;
  name: string;
  family: string;
  description: string;
  creator: string | null;
  weights: 'open' | 'proprietary' | null;
  weightsUrl: string | null;
  retiredOn: string | null;
}

/** The calibration model (a local reference server), not part of the public catalog files. */
export const CALIBRATION_MODEL: SeedModel = {
  slug: 'tokenpace-reference',
  name: 'Tokenpace reference stream',
  family: 'Calibration',
  description: 'Synthetic stream from the Tokenpace reference server at a configured rate; used to prove measurement accuracy.',
  creator: null,
  weights: null,
  weightsUrl: null,
  retiredOn: null,
};

export const SEED_MODELS: SeedModel[] = [
  ...CATALOG.models.map((m) => ({
    slug: m.slug,
    name: m.name,
    family: m.family,
    description: m.description,
    creator: m.creator,
    weights: m.weights,
    weightsUrl: m.weightsUrl,
    retiredOn: m.retiredOn ?? null,
  })),
  CALIBRATION_MODEL,
];

export const SEED_PROVIDERS: SeedProvider[] = CATALOG.providers.map((p) => ({ slug: p.slug, name: p.name, websiteUrl: p.websiteUrl }));

/** Provider key variables as the README's key table lists them (provider, variable, what else it needs). */
export const PROVIDER_KEYS = CATALOG.providers.map((p) => ({ providerSlug: p.slug, provider: p.name, apiKeyEnv: p.apiKeyEnv, note: p.keyNote ?? null }));

const maverick = 'llama-4-maverick';

export const SEED_ENDPOINTS: SeedEndpoint[] = CATALOG.endpoints.map((e) => ({
  slug: e.slug,
  providerSlug: e.providerSlug,
  modelSlug: e.model,
  protocol: e.protocol,
  baseUrl: e.baseUrl,
  apiModelId: e.apiModelId,
  apiKeyEnv: e.apiKeyEnv,
  ...deploymentOf(e),
  region: e.region,
  system: e.system,
  contextWindowTokens: e.contextWindowTokens,
  pricing: e.pricing,
  source: e.source,
  retiredOn: e.retiredOn ?? null,
  probeHeaders: e.probeHeaders ?? null,
  serviceTier: e.serviceTier ?? null,
  tierObjective: e.tierObjective ?? null,
}));

/**
 * An endpoint an owner can submit (prefilled on /submit?template=slug): declared metadata of a
 * known serving system, with the owner's own base URL and key to fill in.
 */
export interface EndpointTemplate {
  slug: string;
  /** what the owner picks from */
  title: string;
  description: string;
  modelSlug: string;
  protocol: Protocol;
  /** example base URL; the owner replaces the host */
  baseUrl: string;
  apiModelId: string;
  hardware: string;
  engine: string;
  precision: string | null;
  speculativeDecoding: string | null;
  deploymentKind: 'shared' | 'dedicated' | 'self-hosted';
  /** the claims' name for this system (see SeedEndpoint.system) */
  system: string;
}

/**
 * Templates of systems named by published claims that no catalog endpoint is: when an owner
 * submits one, the claim about that system is drawn beside it.
 */
export const ENDPOINT_TEMPLATES: EndpointTemplate[] = [
  {
    slug: 'dgx-b200-trtllm-llama-4-maverick',
    title: 'Self-hosted NVIDIA DGX B200 with TensorRT-LLM (trtllm-serve)',
    description:
      'Llama 4 Maverick on one DGX B200 (8x B200) served by TensorRT-LLM’s OpenAI-compatible server (`trtllm-serve <model> --host 0.0.0.0 --port 8000`, chat completions at /v1/chat/completions), the system of NVIDIA’s May 2025 record of 1,038 TPS/user (FP8, EAGLE-3 speculative decoding).',
    modelSlug: maverick,
    protocol: 'openai-chat',
    baseUrl: 'https://your-dgx-host.example.com/v1',
    apiModelId: 'nvidia/Llama-4-Maverick-17B-128E-Instruct-FP8',
    hardware: 'NVIDIA DGX B200 (8x B200)',
    engine: 'TensorRT-LLM (trtllm-serve)',
    precision: 'FP8',
    speculativeDecoding: 'EAGLE-3',
    deploymentKind: 'self-hosted',
    system: 'NVIDIA DGX B200 (8x B200), TensorRT-LLM, self-hosted',
  },
];

/** The calibration provider and its reference endpoint (a local reference server). */
export const CALIBRATION_PROVIDER: SeedProvider = {
  slug: 'tokenpace-calibration',
  name: 'Tokenpace calibration',
  websiteUrl: 'https://github.com/tokenpace/tokenpace',
};

/**
 * Configured figures of the local reference server started by `tokenpace start`. capacityTps:
 * its throughput model (lib/reference-server): up to 8 concurrent streams each get the full `tps`
 * (scheduled probes never come near that), a calibration sweep beyond 8 sees min(tps, C ÷ N): a
 * known true curve (lib/sweep/configured-curve).
 */
export const CALIBRATION_CONFIG = { tps: 1000, ttftMs: 150, tokensPerChunk: 1, outputTokens: 256, capacityTps: 8000 } as const;

/**
 * Fills ${VAR} placeholders from `lookup`. Returns null when any placeholder is unset, so an
 * endpoint whose URL needs a resource name stays inactive until it is configured.
 */
export function fillUrlTemplate(template: string, lookup: (name: string) => string | null): string | null {
  let missing = false;
  const filled = template.replace(/\$\{([A-Z][A-Z0-9_]*)\}/g, (_, name: string) => {
    const value = lookup(name);
    if (!value) missing = true;
    return value ?? '';
  });
  return missing ? null : filled;
}
