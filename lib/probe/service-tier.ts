/**
 * Service tiers as endpoints (issue 25 item 4, decision 262): the documented request parameter an
 * endpoint sends to ask for a tier, and the objective a provider publishes for it.
 *
 * A tier is one of a closed vocabulary of documented parameters, each valid on its protocols with
 * the values its provider documents (no free-form fields: a declared tier can never overwrite the
 * probe's own fields such as `stream`, `max_tokens` or the prompt):
 * - `service_tier` (body) — OpenAI Chat Completions and Responses: auto | default | flex | priority
 *   | scale (https://developers.openai.com/api/docs/guides/priority-processing; xAI takes the same
 *   field: https://docs.x.ai/developers/advanced-api-usage/priority-processing); Anthropic
 *   Messages: auto | standard_only (https://platform.claude.com/docs/en/api/service-tiers); Gemini
 *   API: flex | priority (https://ai.google.dev/gemini-api/docs/priority-inference).
 * - `speed` (body) — Anthropic fast mode: fast, with the beta header `anthropic-beta:
 *   fast-mode-2026-02-01` (https://platform.claude.com/docs/en/build-with-claude/fast-mode).
 * - `serviceTier.type` (body `serviceTier: {type}`) — Bedrock Converse: priority | default | flex |
 *   reserved (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ServiceTier.html).
 * - `X-Vertex-AI-LLM-Request-Type` (header) — Vertex AI: dedicated | shared (Provisioned
 *   Throughput or pay-as-you-go), and `X-Vertex-AI-LLM-Shared-Request-Type` (header): priority |
 *   flex (https://docs.cloud.google.com/vertex-ai/generative-ai/docs/deploy/consumption-options).
 *
 * An objective is what the provider promises for the tier, as it publishes it: a share of
 * requests (e.g. 0.99) whose TPS/user is above a threshold (e.g. 50 tokens/s, OpenAI's Priority
 * processing "99% > 50 tokens per second", https://openai.com/api-priority-processing/) and/or
 * whose TTFT is within a threshold, with the page it was read from. Pure.
 */
import { SERVICE_TIER_PARAMETER_NAMES, type Protocol, type ServiceTierDeclaration, type ServiceTierParameter } from './types';

export { SERVICE_TIER_PARAMETER_NAMES, type ServiceTierDeclaration, type ServiceTierParameter };

/** Where a tier parameter goes in the request. */
type Placement = 'body' | 'header';

interface ParameterSpec {
  placement: Placement;
  /** documented values per protocol the parameter is valid on */
  values: Partial<Record<Protocol, readonly string[]>>;
  /** where the parameter and its values are documented */
  source: string;
}

/** The documented tier parameters (module doc), by the name a declaration uses. */
export const SERVICE_TIER_PARAMETERS = {
  service_tier: {
    placement: 'body',
    values: {
      'openai-chat': ['auto', 'default', 'flex', 'priority', 'scale'],
      'openai-responses': ['auto', 'default', 'flex', 'priority', 'scale'],
      'anthropic-messages': ['auto', 'standard_only'],
      'gemini-stream': ['flex', 'priority'],
    },
    source: 'https://developers.openai.com/api/docs/guides/priority-processing',
  },
  speed: {
    placement: 'body',
    values: { 'anthropic-messages': ['fast'] },
    source: 'https://platform.claude.com/docs/en/build-with-claude/fast-mode',
  },
  'serviceTier.type': {
    placement: 'body',
    values: { 'bedrock-converse-stream': ['priority', 'default', 'flex', 'reserved'] },
    source: 'https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ServiceTier.html',
  },
  'X-Vertex-AI-LLM-Request-Type': {
    placement: 'header',
    values: { 'gemini-stream': ['dedicated', 'shared'] },
    source: 'https://docs.cloud.google.com/vertex-ai/generative-ai/docs/deploy/consumption-options',
  },
  'X-Vertex-AI-LLM-Shared-Request-Type': {
    placement: 'header',
    values: { 'gemini-stream': ['priority', 'flex'] },
    source: 'https://docs.cloud.google.com/vertex-ai/generative-ai/docs/deploy/consumption-options',
  },
} as const satisfies Record<ServiceTierParameter, ParameterSpec>;

/** The beta header Anthropic's fast mode is requested with (module doc). */
export const ANTHROPIC_FAST_MODE_BETA = 'fast-mode-2026-02-01';

/**
 * Why `tier` cannot be sent on `protocol` (a sentence naming the allowed values), or null when it
 * can. Pure.
 */
export function checkServiceTier(protocol: Protocol, tier: ServiceTierDeclaration): string | null {
  const spec: ParameterSpec | undefined = SERVICE_TIER_PARAMETERS[tier.parameter];
  if (!spec) return `unknown tier parameter; one of ${SERVICE_TIER_PARAMETER_NAMES.join(', ')}`;
  const values = spec.values[protocol];
  if (!values) {
    const on = Object.keys(spec.values).join(', ');
    return `${tier.parameter} is not a parameter of ${protocol} (it is documented for ${on})`;
  }
  if (!values.includes(tier.value)) return `${tier.parameter} on ${protocol} takes one of ${values.join(', ')}`;
  return null;
}

/** What a declared tier adds to a request: body fields (merged at the top level) and headers. */
export interface ServiceTierFields {
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

/**
 * The body fields and headers that ask `protocol`'s server for `tier` (module doc). Adapters merge
 * them before signing (Bedrock's SigV4 covers the body).
 * @throws RangeError when the tier is not valid on the protocol ({@link checkServiceTier}); every
 *   write path validates first, so this is a programming error
 */
export function serviceTierFields(protocol: Protocol, tier: ServiceTierDeclaration): ServiceTierFields {
  const problem = checkServiceTier(protocol, tier);
  if (problem) throw new RangeError(problem);
  switch (tier.parameter) {
    case 'service_tier':
      return { body: { service_tier: tier.value }, headers: {} };
    case 'speed':
      return { body: { speed: tier.value }, headers: { 'anthropic-beta': ANTHROPIC_FAST_MODE_BETA } };
    case 'serviceTier.type':
      return { body: { serviceTier: { type: tier.value } }, headers: {} };
    case 'X-Vertex-AI-LLM-Request-Type':
    case 'X-Vertex-AI-LLM-Shared-Request-Type':
      return { body: {}, headers: { [tier.parameter.toLowerCase()]: tier.value } };
  }
}

/**
 * A provider's published objective for a tier: at least `share` of requests meet every threshold
 * given. At least one threshold is set.
 */
export interface TierObjective {
  /** promised share of requests, a fraction in (0, 1], e.g. 0.99 */
  share: number;
  /** TPS/user a request must exceed (strictly, "99% > 50 tokens per second"), tokens/s; null: no speed threshold */
  minOutputTokensPerSecond: number | null;
  /** TTFT a request must not exceed (≤), ms; null: no TTFT threshold */
  maxTtftMs: number | null;
  /** the page the objective was read from (http(s)) */
  sourceUrl: string;
}

/** The figures of one measurement an objective is judged on. */
export interface TierObjectiveInput {
  outcome: 'success' | 'error';
  /** the ranked TPS/user (provider's count, o200k when it reports none; decision 065), tokens/s */
  outputTokensPerSecond: number | null;
  ttftMs: number | null;
  /** the response named another tier than the one asked for ({@link findServiceTierMismatch}); absent: none seen */
  serviceTierMismatch?: { asked: string; served: string } | null;
}

/**
 * Protocols whose response names the tier with the request's own words, so the two can be
 * compared: OpenAI Chat Completions and Responses answer `service_tier` with the tier that
 * processed the request (auto resolves to default, priority or flex;
 * https://platform.openai.com/docs/api-reference/chat/object#chat/object-service_tier).
 * Anthropic answers `usage.service_tier` in other words (standard, priority, batch) than it is
 * asked in (auto, standard_only), so it is recorded, not compared.
 */
const COMPARED_TIER_PROTOCOLS: readonly Protocol[] = ['openai-chat', 'openai-responses'];

/**
 * The endpoint asked for a tier and the response named another (decision 293): `{asked, served}`
 * when `tier` is a `service_tier` declaration on OpenAI Chat or Responses other than `auto` (which
 * asks for no tier in particular) and `served` is a different name (compared without case); null
 * otherwise, also when the response named no tier (nothing seen is no evidence). Pure.
 */
export function findServiceTierMismatch(
  protocol: Protocol,
  tier: ServiceTierDeclaration | null,
  served: string | null | undefined,
): { asked: string; served: string } | null {
  if (!tier || tier.parameter !== 'service_tier' || !COMPARED_TIER_PROTOCOLS.includes(protocol)) return null;
  if (tier.value === 'auto' || served === null || served === undefined) return null;
  return served.toLowerCase() === tier.value.toLowerCase() ? null : { asked: tier.value, served };
}

/**
 * Whether one measurement met `objective`: 1 when its TPS/user is above the speed threshold
 * (strictly: a measurement exactly at 50 tokens/s does not meet "> 50") and its TTFT within the
 * TTFT threshold (≤), 0 when it missed either or when the response said another tier served it
 * (`serviceTierMismatch`: the tier's objective was not delivered, however fast the default tier
 * was; decision 293), null when there is no objective or nothing to judge (a failed probe, or a
 * figure the objective needs is absent). Stored per measurement
 * (`measurements.tier_objective_met`), judged against the objective declared when it was measured;
 * only rankable ones enter attainment (lib/stats/window-stats). Pure.
 */
export function judgeTierObjective(objective: TierObjective | null, m: TierObjectiveInput): 0 | 1 | null {
  if (!objective || m.outcome !== 'success') return null;
  const { minOutputTokensPerSecond: minTps, maxTtftMs } = objective;
  if (minTps === null && maxTtftMs === null) return null;
  if (minTps !== null) {
    if (m.outputTokensPerSecond === null || !Number.isFinite(m.outputTokensPerSecond)) return null;
  }
  if (maxTtftMs !== null) {
    if (m.ttftMs === null || !Number.isFinite(m.ttftMs)) return null;
  }
  if (m.serviceTierMismatch) return 0;
  const speedOk = minTps === null || m.outputTokensPerSecond! > minTps;
  const ttftOk = maxTtftMs === null || m.ttftMs! <= maxTtftMs;
  return speedOk && ttftOk ? 1 : 0;
}
