/**
 * The seeded catalog: providers named in the May 2025 Llama 4 Maverick claims
 * (../datasets/claims), the model, and one endpoint per provider with its public base URL and
 * API model id. An endpoint is active only when its API key variable is set in the environment.
 * Base URLs and model ids are those the providers document publicly (checked Nov 2026); a
 * provider that renames a model id needs only this file changed.
 */
import type { Protocol } from '@/lib/probe/types';

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
}

export const SEED_MODELS = [
  {
    slug: 'llama-4-maverick',
    name: 'Llama 4 Maverick 17B-128E Instruct',
    family: 'Llama 4',
    description: 'Meta Llama 4 Maverick: mixture of experts, 17B active parameters, 128 experts, ~400B total.',
  },
  {
    slug: 'tokenpace-reference',
    name: 'Tokenpace reference stream',
    family: 'Calibration',
    description: 'Synthetic stream from the Tokenpace reference server at a configured rate; used to prove measurement accuracy.',
  },
] as const;

export const SEED_PROVIDERS: SeedProvider[] = [
  { slug: 'nvidia', name: 'NVIDIA', websiteUrl: 'https://build.nvidia.com' },
  { slug: 'sambanova', name: 'SambaNova', websiteUrl: 'https://cloud.sambanova.ai' },
  { slug: 'groq', name: 'Groq', websiteUrl: 'https://groq.com' },
  { slug: 'amazon-bedrock', name: 'Amazon Bedrock', websiteUrl: 'https://aws.amazon.com/bedrock/' },
  { slug: 'fireworks', name: 'Fireworks', websiteUrl: 'https://fireworks.ai' },
  { slug: 'lambda', name: 'Lambda', websiteUrl: 'https://lambda.ai' },
  { slug: 'kluster-ai', name: 'Kluster.ai', websiteUrl: 'https://kluster.ai' },
  { slug: 'centml', name: 'CentML', websiteUrl: 'https://centml.ai' },
  { slug: 'google-vertex', name: 'Google Vertex AI', websiteUrl: 'https://cloud.google.com/vertex-ai' },
  { slug: 'together', name: 'Together AI', websiteUrl: 'https://together.ai' },
  { slug: 'deepinfra', name: 'DeepInfra', websiteUrl: 'https://deepinfra.com' },
  { slug: 'novita', name: 'Novita AI', websiteUrl: 'https://novita.ai' },
  { slug: 'azure', name: 'Microsoft Azure', websiteUrl: 'https://ai.azure.com' },
];

const maverick = 'llama-4-maverick';
const base = { modelSlug: maverick, speculativeDecoding: null, region: null } as const;

export const SEED_ENDPOINTS: SeedEndpoint[] = [
  { ...base, slug: 'nvidia-nim-llama-4-maverick', system: 'NVIDIA NIM API (build.nvidia.com)', providerSlug: 'nvidia', protocol: 'openai-chat', baseUrl: 'https://integrate.api.nvidia.com/v1', apiModelId: 'meta/llama-4-maverick-17b-128e-instruct', apiKeyEnv: 'NVIDIA_API_KEY', hardware: null, engine: 'NVIDIA NIM (TensorRT-LLM)', precision: null, deploymentKind: 'shared' },
  { ...base, slug: 'sambanova-llama-4-maverick', system: 'SambaNova Cloud API', providerSlug: 'sambanova', protocol: 'openai-chat', baseUrl: 'https://api.sambanova.ai/v1', apiModelId: 'Llama-4-Maverick-17B-128E-Instruct', apiKeyEnv: 'SAMBANOVA_API_KEY', hardware: 'SambaNova SN40L RDU', engine: null, precision: 'BF16', deploymentKind: 'shared' },
  { ...base, slug: 'groq-llama-4-maverick', system: 'Groq API', providerSlug: 'groq', protocol: 'openai-chat', baseUrl: 'https://api.groq.com/openai/v1', apiModelId: 'meta-llama/llama-4-maverick-17b-128e-instruct', apiKeyEnv: 'GROQ_API_KEY', hardware: 'Groq LPU', engine: null, precision: null, deploymentKind: 'shared' },
  { ...base, slug: 'bedrock-llama-4-maverick', system: 'Amazon Bedrock API', providerSlug: 'amazon-bedrock', protocol: 'bedrock-converse-stream', baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com', apiModelId: 'us.meta.llama4-maverick-17b-instruct-v1:0', apiKeyEnv: 'AWS_ACCESS_KEY_ID', hardware: null, engine: null, precision: null, deploymentKind: 'shared', region: 'us-east-1' },
  { ...base, slug: 'fireworks-llama-4-maverick', system: 'Fireworks API', providerSlug: 'fireworks', protocol: 'openai-chat', baseUrl: 'https://api.fireworks.ai/inference/v1', apiModelId: 'accounts/fireworks/models/llama4-maverick-instruct-basic', apiKeyEnv: 'FIREWORKS_API_KEY', hardware: null, engine: null, precision: null, deploymentKind: 'shared' },
  { ...base, slug: 'lambda-llama-4-maverick', system: 'Lambda API', providerSlug: 'lambda', protocol: 'openai-chat', baseUrl: 'https://api.lambda.ai/v1', apiModelId: 'llama-4-maverick-17b-128e-instruct-fp8', apiKeyEnv: 'LAMBDA_API_KEY', hardware: null, engine: null, precision: 'FP8', deploymentKind: 'shared' },
  { ...base, slug: 'kluster-llama-4-maverick', system: 'Kluster.ai API', providerSlug: 'kluster-ai', protocol: 'openai-chat', baseUrl: 'https://api.kluster.ai/v1', apiModelId: 'meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8', apiKeyEnv: 'KLUSTER_API_KEY', hardware: null, engine: null, precision: 'FP8', deploymentKind: 'shared' },
  { ...base, slug: 'centml-llama-4-maverick', system: 'CentML API', providerSlug: 'centml', protocol: 'openai-chat', baseUrl: 'https://api.centml.com/openai/v1', apiModelId: 'meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8', apiKeyEnv: 'CENTML_API_KEY', hardware: null, engine: null, precision: 'FP8', deploymentKind: 'shared' },
  { ...base, slug: 'vertex-llama-4-maverick', system: 'Google Vertex AI API', providerSlug: 'google-vertex', protocol: 'openai-chat', baseUrl: 'https://us-east5-aiplatform.googleapis.com/v1/projects/${VERTEX_PROJECT_ID}/locations/us-east5/endpoints/openapi', apiModelId: 'meta/llama-4-maverick-17b-128e-instruct-maas', apiKeyEnv: 'VERTEX_ACCESS_TOKEN', hardware: null, engine: null, precision: null, deploymentKind: 'shared', region: 'us-east5' },
  { ...base, slug: 'together-llama-4-maverick', system: 'Together AI API', providerSlug: 'together', protocol: 'openai-chat', baseUrl: 'https://api.together.xyz/v1', apiModelId: 'meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8', apiKeyEnv: 'TOGETHER_API_KEY', hardware: null, engine: null, precision: 'FP8', deploymentKind: 'shared' },
  { ...base, slug: 'deepinfra-llama-4-maverick', system: 'DeepInfra API', providerSlug: 'deepinfra', protocol: 'openai-chat', baseUrl: 'https://api.deepinfra.com/v1/openai', apiModelId: 'meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8', apiKeyEnv: 'DEEPINFRA_API_KEY', hardware: null, engine: null, precision: 'FP8', deploymentKind: 'shared' },
  { ...base, slug: 'novita-llama-4-maverick', system: 'Novita AI API', providerSlug: 'novita', protocol: 'openai-chat', baseUrl: 'https://api.novita.ai/v3/openai', apiModelId: 'meta-llama/llama-4-maverick-17b-128e-instruct-fp8', apiKeyEnv: 'NOVITA_API_KEY', hardware: null, engine: null, precision: 'FP8', deploymentKind: 'shared' },
  { ...base, slug: 'azure-llama-4-maverick', system: 'Microsoft Azure AI Foundry API', providerSlug: 'azure', protocol: 'openai-chat', baseUrl: 'https://${AZURE_AI_RESOURCE}.services.ai.azure.com/models', apiModelId: 'Llama-4-Maverick-17B-128E-Instruct-FP8', apiKeyEnv: 'AZURE_AI_API_KEY', hardware: null, engine: null, precision: 'FP8', deploymentKind: 'shared' },
];

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
