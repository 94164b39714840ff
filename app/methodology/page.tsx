import type { Metadata } from 'next';
import { HEADLINE_WORKLOAD_SLUG } from '@/lib/probe/workloads';
import Link from 'next/link';
import { SEED_WORKLOADS } from '@/lib/catalog/seed-workloads';
import { NOT_RANKABLE_REASONS, type NotRankableReason } from '@/lib/probe/types';
import { CLEAN_FINISHES, FAILED_FINISHES, FILTERED_FINISHES } from '@/lib/probe/finish-reasons';
import { TIMING_BOUND_LIMITS } from '@/lib/probe/timing-bound';
import { MEDIAN_CI_CONFIDENCE, MIN_RANKED_SAMPLES } from '@/lib/ranking/build-leaderboard';
import { SKETCH_RELATIVE_ACCURACY } from '@/lib/stats/sketch';
import { SEALED_AFTER_MS } from '@/lib/stats/window-stats';
import { DataTable } from '@/app/_components/data-table';

export const metadata: Metadata = { title: 'Methodology' };

/** What each not-rankable reason means, for the rankability section. */
const NOT_RANKABLE_REASON_TEXT: Record<NotRankableReason, string> = {
  failed: 'the probe did not succeed; it counts in the success rate instead.',
  unrecognized_shape:
    'the stream carried text in a field or event the probe does not know (the JSON paths are kept with the measurement), so output may have been missed.',
  token_count_mismatch:
    'the provider’s output count (less the reasoning tokens it reports as not streamed) and the o200k_base count of the received text differ by more than 25 %: the count or the text is wrong.',
  buffered_stream:
    'the answer was delivered rather than streamed (most tokens in one event after the first, at the end or mid-stream, or every token event at one instant), so there was no generation pace to time.',
  event_loop_stall:
    'measurements before the error bound existed: the measuring worker’s event-loop delay p99 exceeded 50 ms, so its clock could not be trusted (no longer raised; timing_uncertain replaced it).',
  timing_uncertain: `the measurement’s own error bound (how late the probe may have noticed the reads that define its first token, last token and end) is unknown or wider than the published accuracy: speed ± ${TIMING_BOUND_LIMITS.speedPct} %, TTFT + ${TIMING_BOUND_LIMITS.ttftMs} ms.`,
  hidden_reasoning_uncounted:
    'the counts disagree and the stream withheld reasoning (redacted or undisplayed thinking) without the provider saying how many tokens it was, so the number of streamed tokens cannot be known.',
  disputed:
    'an admin accepted a dispute (of the endpoint’s owner or our own) that this measurement should not count, for example an outage of our worker region; the measurement is kept unchanged and the dispute, with its reason, is public on the endpoint page and in the API.',
  sequence_broken:
    'the protocol numbers its events (the Responses API’s sequence_number) and the numbers skipped, repeated or went backwards, so events may be missing or out of order; or the stream sent new text after it had said it was finished (a finish reason), so it contradicts itself (decision 303).',
  unknown_finish:
    'the stream stated a finish reason that is neither a clean finish of its protocol nor one naming a failure (the word is kept with the measurement), so we cannot tell whether the generation ended normally.',
  implausible_delivery:
    'the timing could not come from generation (decision 170): a wait before the first token more than 4 times the stream’s own span from first to last token (beyond what prefilling the prompt can take, and what reasoning the provider reports as generated but not streamed can take, counted only up to the request’s output limit less the visible output), so the answer was held and then released; or a first token, or any delivery in the first 10 % of the tokens, reached after more than 8 times the stream’s own pace per token since the first (clock padding: the TTFT clock was stopped by a token that was not the start of the output; the real start is kept with the measurement).',
  fidelity_failed:
    'the probe carried a fidelity check and its answer failed it (wrong result, or the access code spread over the prompt missing): a number for an answer that is not an answer is not ranked.',
  degenerate_output:
    'the text is not an answer: more than 75 % of its word 4-grams repeat an earlier one (a generation loop; text without word separators, such as Chinese or a run of junk, by its character 4-grams), more than 30 % of its events repeat the event before them word for word (every chunk sent twice), more than 45 % of its words lie in a run of 8 words said earlier in the answer, reasoning or tool arguments (the answer sent again, or copied from one channel to another), more than 20 % of the words of its events open an event by repeating the last words of the text before it (a sliding-window resend), more than 25 % of its o200k tokens are taken by characters nobody sees (zero-width and other format characters, variation selectors), it holds no letter or digit at all (from 8 characters, unless it made a tool call), letters and digits are fewer than 20 % of its characters (whitespace and punctuation), or its words of letters take more than 0.45 o200k tokens per letter (random letters, which no language writes and which inflate the token count about twice; prose takes 0.2-0.35).',
  repeated_answer:
    'the answer is the same text (case and spacing aside) as a recent answer of the same endpoint to a different prompt: a canned reply, not generation.',
};

/** One metric's entry; `id` is the stable anchor every metric name on the site links to. */
interface MetricEntry {
  id:
    | 'ttfb'
    | 'ttft'
    | 'ttfat'
    | 'output-speed'
    | 'tpot'
    | 'itl'
    | 'e2e'
    | 'tokens'
    | 'throughput'
    | 'success-rate'
    | 'cached-input-tokens'
    | 'cached-input-share'
    | 'cache-hit-share'
    | 'structured-penalty'
    | 'agent-turns'
    | 'cache-lifetime'
    | 'tier-attainment';
  name: string;
  unit: string;
  definition: string;
  formula: string;
  field: string;
  source: string;
}

const METRICS: MetricEntry[] = [
  {
    id: 'ttfb',
    name: 'TTFB (time to first byte)',
    unit: 'ms',
    definition:
      'From request start to the first byte of the response (headers included). Says how quickly the server accepted the request, not when generation began.',
    formula: 'TTFB = t(first response byte) − t(request start)',
    field: 'ttfbMs (measurements)',
    source: 'HTTP timing convention (e.g. browser Resource Timing responseStart).',
  },
  {
    id: 'ttft',
    name: 'TTFT (time to first token)',
    unit: 'ms',
    definition:
      'From request start to the arrival of the first event carrying any generated token: answer text, reasoning or tool-call arguments. Role-only, empty, keep-alive, comment and usage-only chunks do not count.',
    formula: 'TTFT = t(first content event) − t(request start)',
    field: 'ttftMs',
    source: 'NVIDIA GenAI-Perf/AIPerf (time to first token on any channel); vLLM/SGLang bench_serving.',
  },
  {
    id: 'ttfat',
    name: 'TTFAT (time to first answer token)',
    unit: 'ms',
    definition:
      'From request start to the first answer token (text or tool call), after any reasoning tokens. Equals TTFT for models that do not reason before answering.',
    formula: 'TTFAT = t(first answer or tool-call event) − t(request start)',
    field: 'ttfatMs',
    source: 'Artificial Analysis methodology (time to first answer token).',
  },
  {
    id: 'output-speed',
    name: 'Output speed per user (TPS/user)',
    unit: 'tokens/s',
    definition:
      'How fast one user receives tokens once the stream has started: the tokens after the first content event, divided by the time from the first to the last content event. It excludes TTFT, so queueing and prefill do not dilute it. Only streamed tokens count: reasoning a provider generates without streaming it is generated before the first streamed token, so it lengthens TTFT and is left out of N. The ranking metric.',
    formula: 'TPS/user = (N − tokens in the first content event) ÷ (t(last content event) − t(first content event))',
    field: 'outputTokensPerSecond (provider-reported N) and outputTokensPerSecondO200k (o200k_base N)',
    source: 'Artificial Analysis (output speed after the first chunk); equals 1/TPOT of vLLM, SGLang and TensorRT-LLM benchmarks.',
  },
  {
    id: 'tpot',
    name: 'TPOT (time per output token)',
    unit: 'ms/token',
    definition:
      'Average time per token after the first, over the whole request (one number per request). Unlike 1 ÷ TPS/user it includes the time from the last token to the end of the stream.',
    formula: 'TPOT = (E2E − TTFT) ÷ (N − 1)',
    field: 'tpotMs',
    source:
      'vLLM benchmarks/benchmark_serving.py (TPOT: “time per output token, excluding the first token”); NVIDIA AIPerf/GenAI-Perf call the same per-request quantity “inter token latency” ((request latency − TTFT) ÷ (output tokens − 1)).',
  },
  {
    id: 'itl',
    name: 'ITL (inter-token latency)',
    unit: 'ms/token',
    definition:
      'The distribution of gaps between tokens within one stream: each gap between consecutive token-bearing events divided by the tokens the later event carried, counted once per token it carried. Chunk-aware: a provider that sends five tokens per event is not credited with five instant tokens, and raw chunk gaps are never reported as per-token latency. Per measurement we store the token-weighted p50 and p95 (the timeline keeps the whole distribution); its token-weighted mean equals 1000 ÷ TPS/user. A window’s medianItlP50Ms is the median over its measurements of their ITL P50, medianItlP95Ms the median of their ITL P95 (a typical request’s tail, not the tail of tails). TPOT is one average per request; ITL shows stalls and bursts the average hides.',
    formula: 'ITLᵢ = (tᵢ − tᵢ₋₁) ÷ tokensᵢ for token-bearing events i ≥ 2, weighted by tokensᵢ',
    field: 'itlP50Ms, itlP95Ms (measurements); medianItlP50Ms, medianItlP95Ms (leaderboard entries: the window’s medians of those)',
    source:
      'vLLM benchmarks/benchmark_serving.py (ITL: per-chunk gaps, percentiles), SGLang bench_serving; NVIDIA AIPerf (ITL as a per-request average, which is our TPOT). Made chunk-aware here.',
  },
  {
    id: 'e2e',
    name: 'E2E latency (end-to-end)',
    unit: 'ms',
    definition: 'From request start to the end of the stream (the last byte, or the terminating event).',
    formula: 'E2E = t(end of stream) − t(request start)',
    field: 'e2eMs',
    source: 'LLMPerf; vLLM/SGLang bench_serving.',
  },
  {
    id: 'tokens',
    name: 'N (output tokens)',
    unit: 'tokens',
    definition:
      'The number of generated tokens. Two counts are kept: the provider-reported completion_tokens (from exactly one usage source), and a normalised count of all received text with the o200k_base tokenizer, so providers whose tokenizers differ compare fairly. Every ranking names its basis; the default is o200k (the count of the text actually received), and the provider’s count is kept beside it (basis=reported).',
    formula: 'N_reported = usage.completion_tokens − hidden reasoning tokens; N_o200k = |o200k_base(generated text)|',
    field: 'outputTokensReported, outputTokensO200k; basis=o200k (default)|reported in the API',
    source: 'Artificial Analysis (o200k_base normalisation).',
  },
  {
    id: 'throughput',
    name: 'Throughput (aggregate)',
    unit: 'tokens/s',
    definition:
      'Tokens per second summed over all concurrent streams of a workload: a server-capacity figure, not what one user sees. LLMPerf’s per-request "throughput" divides by end-to-end latency (it includes TTFT; in the imported December 2023 data it even counted SSE chunks) and is kept apart, never ranked.',
    formula: 'throughput = Σ tokens of all streams ÷ wall-clock span of the run',
    field: 'llmperfThroughputTokensPerSecond (imported datasets only)',
    source: 'LLMPerf; NVIDIA AIPerf.',
  },
  {
    id: 'cached-input-tokens',
    name: 'Cached input tokens (prompt cache)',
    unit: 'tokens',
    definition:
      'Input tokens the provider says it served from its prompt cache, read from its own usage report: OpenAI Chat Completions, vLLM, SGLang and OpenRouter usage.prompt_tokens_details.cached_tokens (DeepSeek prompt_cache_hit_tokens); OpenAI Responses usage.input_tokens_details.cached_tokens; Anthropic cache_read_input_tokens (and cache_creation_input_tokens, the tokens written, kept as cacheWriteInputTokens); Gemini usageMetadata.cachedContentTokenCount; Bedrock cacheReadInputTokens / cacheWriteInputTokens. Null when the stream reported no cache count (never 0 by guess). A window’s cachedInputTokens are the percentiles over its rankable measurements that reported a count.',
    formula: 'cachedInputTokens = the protocol’s cache-read count in the final usage report',
    field: 'cachedInputTokens, cacheWriteInputTokens (measurements); cachedInputTokens (leaderboard entries)',
    source:
      'OpenAI prompt caching (https://platform.openai.com/docs/guides/prompt-caching); Anthropic prompt caching (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching); Gemini UsageMetadata (https://ai.google.dev/api/generate-content#UsageMetadata); Amazon Bedrock prompt caching (https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html). Decision 260.',
  },
  {
    id: 'cached-input-share',
    name: 'Cached share of the prompt',
    unit: 'fraction (0–1)',
    definition:
      'Per measurement: the cached input tokens ÷ the input tokens of the whole prompt, both as the provider reported them in the same usage report. The prompt’s input tokens (inputTokensReported) are OpenAI Chat, vLLM, SGLang and OpenRouter usage.prompt_tokens; OpenAI Responses usage.input_tokens; Gemini usageMetadata.promptTokenCount (each already includes the cached tokens); Anthropic input_tokens + cache_read_input_tokens + cache_creation_input_tokens and Bedrock inputTokens + cacheReadInputTokens + cacheWriteInputTokens (their input count excludes the cache reads and writes). A measurement has no share when either count is unreported, when the prompt has 0 input tokens, or when the cached count exceeds the prompt. A window’s cachedInputShare is the percentiles of the shares of its rankable measurements that have one, with n; null when none has. On agent-turn-t it is the cached share per turn (how much of each growing conversation the provider reused); on cache-warm-2k how much of the warm prompt the shared prefix saved.',
    formula:
      'share = cachedInputTokens ÷ inputTokensReported (both reported, input > 0, cached ≤ input); cachedInputShare = P5…P95 of share over the window, n',
    field:
      'inputTokensReported (measurements); cachedInputShare {p5…p95, n} (leaderboard entries); promptCache.cachedInputShare (board columns); cached_input_share rows of /api/v1/endpoints/{id}/families',
    source:
      'OpenAI usage (https://platform.openai.com/docs/api-reference/chat/object#usage); Anthropic tracking cache performance (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching#tracking-cache-performance); Gemini UsageMetadata (https://ai.google.dev/api/generate-content#UsageMetadata); Amazon Bedrock TokenUsage (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_TokenUsage.html). Decisions 290, 291.',
  },
  {
    id: 'cache-hit-share',
    name: 'Prompt-cache hit share; TTFT warm against cold',
    unit: 'fraction (0–1); ms',
    definition:
      'The prompt-cache pair (workloads cache-cold-2k and cache-warm-2k): one probe job sends a ~2,000-token prompt whose first 1,900 tokens are new to the provider (they open with the request’s secret nonce), then, as soon as that answer ends, a second prompt with exactly the same first 1,900 tokens and a different question. TTFT cold is the ttftMs of cache-cold-2k, TTFT warm that of cache-warm-2k, each from the same statistics engine as every other figure. The hit share of a window is the share of its rankable measurements reporting a cache count that reported more than 0 cached tokens, with its 95 % Wilson interval; on cache-cold-2k it should be 0, so a non-zero cold share says the cold request was not cold. 1,900 tokens is above every provider’s caching threshold (1,024 tokens at OpenAI, Anthropic’s Sonnet/Opus and Gemini implicit caching). A provider without a cache, or one that reports none, shows warm ≈ cold and no hit share.',
    formula: 'hit share = #(cachedInputTokens > 0) ÷ #(cachedInputTokens reported); interval: Wilson, z = 1.96',
    field: 'cacheHit {share, n, interval} and ttftMs of the leaderboard entries of workload=cache-warm-2k and cache-cold-2k',
    source:
      'OpenAI prompt caching (TTFT cut by up to 80 % from 1,024 prompt tokens; https://platform.openai.com/docs/guides/prompt-caching); vLLM automatic prefix caching (https://docs.vllm.ai/en/latest/features/automatic_prefix_caching.html); issue 25. Decision 260.',
  },
  {
    id: 'structured-penalty',
    name: 'Structured-output penalty',
    unit: 'ratio',
    definition:
      'The median TPS/user of structured-json-1k (the protocol’s own JSON-schema request) or tool-call-1k (a forced tool call whose arguments stream) ÷ the median TPS/user of prose-1k (the same story request in free text), on one endpoint and window; below 1 the constraint slows decoding. Interval: the two medians’ distribution-free 95 % intervals taken at their extremes, which covers the ratio with at least 90 %. Shown on the endpoint page and served by /api/v1/endpoints/{id}/families (figure speed_penalty).',
    formula: 'penalty = P50(TPS/user, structured) ÷ P50(TPS/user, prose-1k); interval [low_s ÷ high_f, high_s ÷ low_f]',
    field:
      'speed_penalty rows of /api/v1/endpoints/{id}/families; outputTokensPerSecond and outputTokensPerSecondMedianCi of the leaderboard entries of both workloads',
    source:
      'OpenAI structured outputs (https://platform.openai.com/docs/guides/structured-outputs); Anthropic tool use (https://docs.anthropic.com/en/docs/build-with-claude/tool-use); Gemini structured output (https://ai.google.dev/gemini-api/docs/structured-output); public A/Bs cited in issue 25 (ddalcu/mlx-serve#380, tenstorrent/tt-metal#53628). Decision 261.',
  },
  {
    id: 'agent-turns',
    name: 'Agent turns: TTFT, TPS/user and cache per turn',
    unit: 'ms; tokens/s; tokens; fraction',
    definition:
      'A three-turn conversation (workloads agent-turn-1, -2, -3), once a day per endpoint: turn 1 is a story task with ~1,100 tokens of notes drawn with the request’s secret key; every turn forces the tool save_section ({title, story}); its call and a ~300-token tool result of new notes are sent back with the next turn in the protocol’s own shapes (OpenAI Chat tool_calls and role tool; Responses function_call and function_call_output; Anthropic tool_use and tool_result; Bedrock toolUse and toolResult; Gemini functionCall and functionResponse), so turn t’s prompt is everything before it plus the new result. Each turn is one measurement of its workload, so its TTFT, TPS/user (on the streamed arguments), cached input tokens, hit share and cached share of the prompt are ordinary engine figures. The call must validate against the schema (fidelity check); a turn that fails or makes no valid call ends the conversation. With a prompt cache, turns 2 and 3 show cached tokens close to the previous turn’s prompt and a lower TTFT.',
    formula: 'per turn t: ttftMs, outputTokensPerSecond, cachedInputTokens (P50), cacheHit and cachedInputShare (P50, n) of workload agent-turn-t',
    field: 'leaderboard entries of workload=agent-turn-1…3; agent_turns rows of /api/v1/endpoints/{id}/families; evidence.agentTurn of each measurement',
    source:
      'OpenAI function calling (https://platform.openai.com/docs/guides/function-calling); Anthropic tool use (https://docs.anthropic.com/en/docs/build-with-claude/tool-use); Amazon Bedrock Converse tool use (https://docs.aws.amazon.com/bedrock/latest/userguide/tool-use.html); Gemini function calling (https://ai.google.dev/gemini-api/docs/function-calling); multi-turn requests in vllm-project/guidellm#199 and sgl-project/genai-bench#194. Decision 267.',
  },
  {
    id: 'cache-lifetime',
    name: 'Prompt-cache lifetime',
    unit: 'minutes',
    definition:
      'Once a day per endpoint a series sends a ~1,100-token seed whose first ~1,050 tokens are new to the provider (keyed by the worker’s secret, the endpoint and the seed’s slot, so the later checks, each its own probe job, send the same prefix and nobody else can), then the same prefix with a new question 2, 5 and 15 minutes after the request before it (workloads cache-lifetime-seed, cache-lifetime-2m, -5m, -15m). Each check’s hit share comes from the engine. The lifetime is the longest gap hit by more than half of its checks, every shorter gap hit too; the next gap that missed bounds it from above, so the true lifetime lies between them (every request refreshes the cache, so a gap is idle time, as providers document it). A check whose previous request is missing or failed is not sent (its gap would not be the one it names).',
    formula: 'lifetime = max{gap : hit share(gap′) > 0.5 for every tested gap′ ≤ gap}; upper bound = the next tested gap',
    field:
      'cache_lifetime rows of /api/v1/endpoints/{id}/families; cacheHit of the leaderboard entries of workload=cache-lifetime-*; evidence.cacheLifetime.gapMs of each check',
    source:
      'OpenAI prompt caching (cleared after 5–10 minutes of inactivity, up to an hour off-peak; https://platform.openai.com/docs/guides/prompt-caching); Anthropic prompt caching (5-minute lifetime refreshed on each use, 1 hour optional; https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching). Decision 268.',
  },
  {
    id: 'tier-attainment',
    name: 'Service tier objective attainment',
    unit: 'fraction (0–1)',
    definition:
      'An endpoint may declare the service tier it asks for (one documented request parameter, sent with every probe of that endpoint and no other: OpenAI, xAI and the Gemini API service_tier, Anthropic service_tier or speed: "fast" with its beta header, Bedrock serviceTier.type, the Vertex X-Vertex-AI-LLM-Request-Type and X-Vertex-AI-LLM-Shared-Request-Type headers) and the objective its provider publishes for that tier, with the page that publishes it: a share of requests (e.g. 99 %) whose TPS/user is above a threshold (e.g. 50 tokens/s) and/or whose TTFT is within one. When a measurement is stored it is judged against the objective declared then: met when its TPS/user (the ranked speed: the provider’s own count, o200k when it reports none) is strictly above the speed threshold — a request at exactly 50 tokens/s does not meet “> 50” — and its TTFT at or under the TTFT threshold. The tier the response says served the request is kept as evidence (OpenAI Chat and Responses service_tier, Anthropic usage.service_tier); when an OpenAI endpoint asked for a tier (not auto) and the response names another, for example priority asked and default served, the request missed the objective however fast it was: the tier was not delivered. Attainment over a window is the share of the rankable judged measurements that met it, with n and its 95 % Wilson interval, shown for 24 h, 72 h and 7 days beside the promised share: met when the interval’s low end reaches it, missed when its high end is under it, undecided between. An endpoint without a published objective shows no attainment (never 0 %). The provider may compute its own figure differently: OpenAI’s Priority processing latency SLA is “calculated as p50 request latency on a per 5 minute basis”; ours is per request, the stricter reading.',
    formula: 'attainment = #(rankable, tierObjectiveMet = 1) ÷ #(rankable, tierObjectiveMet not null); interval: Wilson, z = 1.96',
    field:
      'tierObjectiveMet (measurements); tierObjectiveAttainment {share, n, interval} and endpoint.serviceTier, endpoint.tierObjective (leaderboard entries)',
    source:
      'OpenAI Priority processing (“99% > 50 tokens per second”, https://openai.com/api-priority-processing/; service_tier, https://developers.openai.com/api/docs/guides/priority-processing); Anthropic service tiers (https://platform.claude.com/docs/en/api/service-tiers) and fast mode (https://platform.claude.com/docs/en/build-with-claude/fast-mode); Amazon Bedrock ServiceTier (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ServiceTier.html); Vertex AI consumption options (https://docs.cloud.google.com/vertex-ai/generative-ai/docs/deploy/consumption-options); Wilson (1927). Decisions 262, 263.',
  },
  {
    id: 'success-rate',
    name: 'Success rate',
    unit: 'fraction (0–1)',
    definition:
      'Successful probes divided by all probes in the window, reported with a Wilson 95 % score interval, which stays inside [0, 1] and behaves at 0 % and 100 %.',
    formula: 'p̂ = successes ÷ n; interval = (p̂ + z²/2n ± z·√(p̂(1−p̂)/n + z²/4n²)) ÷ (1 + z²/n), z = 1.96',
    field: 'successRate, successRateInterval, n, successes',
    source: 'Wilson (1927), JASA 22:209–212.',
  },
];

const ERROR_KINDS: Array<[string, string]> = [
  ['timeout', 'a deadline passed: no first token within 30 s, a gap of 15 s between events, or 120 s in total'],
  ['rate_limited', 'HTTP 429 or an in-stream throttling error; Retry-After is honoured by the scheduler'],
  ['http_error', 'any other non-2xx status'],
  ['stream_error', 'an error inside a 200 stream, a stream cut off before it finished, an unparsable body, or the 8 MiB byte cap'],
  ['empty', 'the stream finished without any generated token'],
  ['cancelled', 'the probe was cancelled (worker shutdown)'],
  ['blocked', 'the SSRF guard refused the address (loopback, private, link-local, …)'],
  ['invalid_url', 'the endpoint URL could not be used'],
];

/** Methodology: every metric's definition, formula, unit and source; workloads, schedule, regions, failures, ties, claims and imported data. */
export default function MethodologyPage() {
  const workloads = SEED_WORKLOADS;
  const pct = (x: number) => `${Number((x * 100).toPrecision(3))} %`;
  return (
    <>
      <h1>Methodology</h1>
      <p>
        Tokenpace measures how fast one user gets tokens from an LLM inference endpoint. Every probe is one streamed request from a worker process that runs
        apart from the web server, so page rendering never disturbs timing. All times come from a monotonic clock (<code>performance.now()</code>).{' '}
        <strong>Request start</strong> is taken just before the request is written on an already-open connection; connection set-up is recorded separately.
        Every probe is stored with its timeline: the arrival time of every content-bearing event and the tokens it carried. An arrival time is taken when the
        worker’s socket hands over the bytes, before anything is parsed; parsing runs afterwards in short slices, so parsing and other streams’ work cannot move
        a timestamp. Large sweeps spread their streams over several threads, each with its own event loop, and each stream is judged by the loop that timed it.
      </p>
      <nav aria-label="Metrics">
        <p>
          Metrics:{' '}
          {METRICS.map((m, i) => (
            <span key={m.id}>
              {i > 0 ? ' · ' : ''}
              <a href={`#${m.id}`}>{m.name.replace(/ \(.*\)$/, '')}</a>
            </span>
          ))}
        </p>
      </nav>

      <h2>Metrics</h2>
      {METRICS.map((m) => (
        <section key={m.id} id={m.id} className="card" aria-labelledby={`${m.id}-title`}>
          <h3 id={`${m.id}-title`} style={{ margin: 0 }}>
            {m.name} <span className="muted">({m.unit})</span>
          </h3>
          <p style={{ margin: '0.25rem 0' }}>{m.definition}</p>
          <p style={{ margin: '0.25rem 0' }}>
            Formula: <code>{m.formula}</code>
          </p>
          <p className="muted" style={{ margin: 0 }}>
            API field: <code>{m.field}</code>. Source: {m.source}
          </p>
        </section>
      ))}

      <h2 id="statistics">Statistics: percentiles, intervals, windows</h2>
      <ul>
        <li>
          <strong>Percentiles</strong> P5, P25, P50 (median), P75 and P95 use linear interpolation between closest ranks (Hyndman &amp; Fan type 7, the default
          of numpy, pandas and R), so they compare directly with vLLM/SGLang <code>bench_serving</code> and LLMPerf. Only successful probes with valid timing
          count.
        </li>
        <li>
          <strong>Windows.</strong> The leaderboard uses the last 72 hours by default: the 72 whole UTC hours before the current hour, plus the current hour up
          to the moment of the answer. The window is answered from pre-merged partial sketches of aligned spans (10 minutes, 1 hour, 6 hours, 1 day, 7 days, 28
          days, UTC) — a few dozen of them for any window at any second — plus the raw measurements of its last few minutes; merging is exact, so this gives the
          same figures as merging the hourly rollups. A board as of an instant more than {Math.round(SEALED_AFTER_MS / 60_000)} minutes ago is final: every
          probe of its window has been folded in, and it never changes.
        </li>
        <li>
          <strong>Accuracy.</strong> Rollups keep, per hour and day, a mergeable log-bucket sketch of each metric (DDSketch-style buckets, relative accuracy{' '}
          {pct(SKETCH_RELATIVE_ACCURACY)}). A window’s percentiles come from merging those sketches, and each is within {pct(SKETCH_RELATIVE_ACCURACY)} of the
          exact type-7 percentile of the same raw values; counts (n, successes, samples, failures by kind, measurements left out by reason) are exact. Only
          rankable measurements enter the sketches. One engine computes every window figure, so the leaderboard, its CSV and snapshots, history, endpoint and
          compare pages, embeds and share images show the identical number for the same endpoint, window and workload (a day of history is the 24 h window of
          that day). The raw measurements stay available for anyone who wants to recompute.
        </li>
        <li>
          <strong>Interval of the median.</strong> Each endpoint’s median output speed gets a distribution-free {pct(MEDIAN_CI_CONFIDENCE)} confidence interval
          from order statistics: [x₍l₎, x₍n−l+1₎] with the largest l for which a Binomial(n, ½) variable is below l with probability at most 2.5 % (Conover
          1999), each end widened to the edge of its sketch bucket so the interval always contains the exact one. It needs no resampling, so it is the same on
          every run; medians closer than the sketch’s resolution (about {pct(2 * SKETCH_RELATIVE_ACCURACY)}) tie.
        </li>
        <li>
          <strong>Change points.</strong> History charts mark level shifts of an endpoint’s daily median output speed, labelled like “+38% on 2025-06-02”:
          binary segmentation with a robust L1 cost; a shift is shown only if the medians differ by at least 15 % and a Mann–Whitney test gives p &lt; 0.05,
          with at least 3 days on each side.
        </li>
      </ul>

      <h2 id="ties">How ties are decided</h2>
      <p>
        Endpoints are sorted by median output speed. The first leads band 1; each next endpoint joins the current band if its median interval overlaps the
        interval of the band’s <em>leader</em>, and otherwise starts a new band. Endpoints in one band are shown as tied and share a competition rank (1, 1, 3).
        Anchoring on the leader keeps a long chain of slightly overlapping intervals from tying the top of the table with the bottom. Endpoints with fewer than{' '}
        {MIN_RANKED_SAMPLES} successful samples in the window are listed without a rank.
      </p>

      <h2 id="models-compared">Comparing models</h2>
      <p>
        The home page shows each model by its fastest endpoint: the first ranked entry of that model’s own board (rank 1, the best median in the top tie band),
        with that entry’s median TPS/user, the 95 % interval of the median, TTFT and success rate copied from the board’s answer, whose snapshot it cites.
        Filters only choose which endpoints may stand for a model; they never recompute a figure. An endpoint without a published price fails a price ceiling
        and one without a declared context window fails a context minimum: unknown is never taken for a number. A model is its weights: the same weights under
        different provider ids or quantisations are one model, and each endpoint’s declared precision is shown beside its speed (declared, not verified; the
        fidelity checks are the evidence of quality). Catalog facts (base URL, id, context window, price) each carry the provider page they were read from and
        the date; retired ids stay listed with their history and are no longer probed.
      </p>

      <h2 id="workloads">Workloads</h2>
      <p>
        A workload fixes a prompt category (prose, code, math, JSON), an input length (~100, ~1,000, ~10,000 and ~100,000 tokens) and an output budget (256
        tokens). Every prompt is drawn afresh for its request with 128 secret random bits (decision 173): its opening line, the wording of its instruction and
        all of its material come from a combinatorial pool (≥ 2^40 forms per sentence), so no prompt, prefix or answer cache can have seen it and nothing public
        predicts it. Probes send the headers the protocol’s official SDK sends and nothing that names Tokenpace; an operator adds a header to one endpoint only
        where the provider’s terms ask for it (decision 174). The grid is listed at <a href="/api/v1/workloads">/api/v1/workloads</a>.
        <strong> Cadence per endpoint:</strong> the headline workload (<code>prose-1k</code>) every slot (1,440 probes a day); every other workload 8 times a
        day (every 3 hours, at phases spread so an endpoint never gets two of them in one slot, and shifted between endpoints); the ~100k workloads only where
        the declared context window holds them. Probes of one endpoint never overlap: they run one at a time per endpoint. Calibration endpoints run every
        workload every slot.
        <strong> Prompt-cache pair:</strong> <code>cache-cold-2k</code> and <code>cache-warm-2k</code> (see <a href="#cache-hit-share">hit share</a>) run every
        6 hours per endpoint (4 pairs a day, calibration endpoints too), one job sending both requests back to back; they carry no fidelity task. Structured
        output: <code>structured-json-1k</code> (the protocol&apos;s own JSON-schema request: OpenAI <code>response_format: json_schema</code>, Responses{' '}
        <code>text.format</code>, Gemini <code>responseSchema</code>, Anthropic and Bedrock a forced tool) and <code>tool-call-1k</code> (a forced function call
        whose arguments stream) ask for the <code>prose-1k</code> story as {'{'}title, story{'}'}, every 6 hours each; validity against the schema is their
        fidelity check (every probe), tool-call arguments count as output tokens, and the <strong>structured-output penalty</strong> is their median TPS/user ÷
        that of <code>prose-1k</code> on the same endpoint and window, with the interval [low ÷ high, high ÷ low] of the two medians&apos; 95 % intervals
        (covers the ratio with ≥ 90 %). Sources: OpenAI structured outputs (https://platform.openai.com/docs/guides/structured-outputs), Anthropic tool use
        (https://docs.anthropic.com/en/docs/build-with-claude/tool-use), Gemini structured output (https://ai.google.dev/gemini-api/docs/structured-output).
        <strong> Agent turns</strong> (<a href="#agent-turns">definition</a>): <code>agent-turn-1</code> once a day, its job sending turns 2 and 3.{' '}
        <strong>Cache lifetime</strong> (<a href="#cache-lifetime">definition</a>): the series once a day, the checks 2, 7 and 22 minutes after the seed.
        Together the families add 23 requests and 33,368 input tokens a day to an endpoint (1.51 % of its requests and 1.87 % of its input tokens with an
        undeclared context window, up from 1.05 % and 1.34 % before agent turns and the lifetime; ceiling 2 %, <code>tokenpace budget</code> prints both). The
        headline board and the prompt-cache boards carry TTFT cold · warm and the warm hit share as columns (<code>promptCache</code> of each entry); every
        family figure of an endpoint is at <code>/api/v1/endpoints/{'{id}'}/families</code> (JSON and CSV).
      </p>
      <h3 id="service-tiers">Service tiers</h3>
      <p>
        A tier sold on speed (OpenAI Priority or Flex processing, Anthropic fast mode, Bedrock Priority, Vertex Priority PayGo) is listed as an endpoint of its
        own: the same model and URL with the tier&apos;s documented request parameter, so it gets every figure of an endpoint and its own history. Where the
        provider publishes an objective for the tier, each measurement is judged against it and the endpoint page shows the share that met it over 24 h, 72 h
        and 7 days beside the promised share (see <a href="#tier-attainment">tier objective attainment</a>). The catalog lists a tier only with the page that
        publishes its parameter and objective. The calibration reference server models tiers (
        <code>tokenpace reference-server --service-tier priority=400,0.25@60</code>: a quarter of its priority streams decode below the rest) so the attainment
        can be checked against a known truth.
      </p>
      <h3 id="fidelity">Fidelity checks</h3>
      <p>
        A fast endpoint that answers wrongly (a broken quantisation, a speculative-decoding bug, a truncated context) must not look like a correct one.{' '}
        <strong>Fidelity probes</strong> carry a checkable task in place of the usual instruction, verified automatically and cheaply: known arithmetic (math),
        the known output of a short Python program (code), a JSON object that must validate against a fixed schema with known values (JSON), and recall of a
        per-probe access code (prose). Every fidelity prompt, whatever its category, also spreads a three-part access code over the prompt (after the
        instruction, in the middle and at the end); the reply must quote all three parts, so an endpoint that truncates or compresses the context fails. At
        least one probe an hour per endpoint × workload is a fidelity probe (every non-headline probe, given their cadence), plus a configurable share of the
        rest (<code>TOKENPACE_FIDELITY_FRACTION</code>, default 10 %). The answer (capped at 16 KB) and the verdict are stored with the measurement (
        <code>fidelityCheck</code>, <code>fidelityPassed</code>, <code>fidelityDetail</code>, <code>answerText</code>). Each leaderboard entry carries{' '}
        <code>
          fidelity: {'{'} passRate, n, interval {'}'}
        </code>{' '}
        for its window (the 95 % Wilson interval; null when no check ran). A day on which an endpoint confidently passes fewer than 95 % of its checks (Wilson
        upper bound below 95 %, at least 3 checks) is a notable change in the <a href="/feed">feed</a>. Fidelity probes are measured like any other probe and
        count for speed too.
      </p>
      <h3 id="price">Price</h3>
      <p>
        Endpoints may carry <code>pricing</code> (USD per million input, output and cached input tokens) declared by the owner at submission or by an admin,
        always with the public page it was read from and the date. Prices are shown as declared, never as measured; null means nobody declared one. The{' '}
        <strong>blended price</strong> is (3 × input + 1 × output) ÷ 4 per million tokens, the 3:1 input:output blend Artificial Analysis publishes.
      </p>
      <h3 id="hidden-reasoning">Hidden reasoning</h3>
      <p>
        Reasoning models may think without streaming their reasoning: OpenAI o-series and gpt-5 models over Chat Completions report it only as{' '}
        <code>completion_tokens_details.reasoning_tokens</code>, xAI’s grok-4 likewise, Gemini as <code>thoughtsTokenCount</code> when no thought parts are
        streamed. These tokens are counted in the provider’s output count but never sent, and they are generated <em>before</em> the first streamed token: the
        wait for them is inside TTFT (and TTFAT), not between the streamed tokens. So the output speed counts only what was streamed: the provider’s count less
        the hidden reasoning tokens (<code>reasoningTokensHidden</code>, stored per measurement), over the streamed window, which is exactly the basis on which
        that count is checked against the received text. Counting hidden tokens in the streamed window would inflate the speed by the whole reasoning length.
        When reasoning text <em>was</em> streamed (<code>reasoning_content</code>, thought parts, thinking deltas) nothing is subtracted: those tokens were
        received and are counted from their text; a streamed summary of longer reasoning therefore disagrees with the count and is not ranked. Reasoning
        withheld without any count (Anthropic <code>redacted_thinking</code>, Bedrock <code>redactedContent</code>) cannot be subtracted either; such a
        measurement is not ranked (<code>hidden_reasoning_uncounted</code>) unless the counts agree anyway. The <code>o200k</code> basis counts only received
        text throughout.
      </p>
      <DataTable
        label="Workloads (table)"
        caption={'Workloads'}
        head={
          <tr>
            <th>Workload</th>
            <th>Category</th>
            <th className="num">Input (tokens)</th>
            <th className="num">Max output (tokens)</th>
            <th className="num">Concurrency</th>
            <th>Cadence per endpoint</th>
          </tr>
        }
      >
        {workloads.map((w) => (
          <tr key={w.slug}>
            <td>
              <code>{w.slug}</code> <span className="muted">{w.name}</span>
            </td>
            <td>{w.category}</td>
            <td className="num">{w.inputTokensTarget}</td>
            <td className="num">{w.maxOutputTokens}</td>
            <td className="num">{w.concurrency}</td>
            <td>
              {w.slug === HEADLINE_WORKLOAD_SLUG
                ? 'every slot (headline)'
                : w.inputTokensTarget >= 100_000
                  ? '8 a day, where the context window holds it'
                  : '8 a day'}
            </td>
          </tr>
        ))}
      </DataTable>

      <h2 id="schedule">Schedule and regions</h2>
      <p>
        A pg-boss cron (every minute by default, <code>TOKENPACE_PROBE_CRON</code>) enqueues one keyed probe per active endpoint × workload due in that slot
        (see the cadence above) × worker region; a slot runs once even with many workers or duplicate jobs. Each worker carries a region label (
        <code>TOKENPACE_WORKER_REGION</code>) stored with every measurement; the leaderboard merges regions unless a <code>region</code> is asked for. After an
        HTTP 429 the endpoint is not probed again before its Retry-After has passed. Every measurement carries its own <a href="#error-bound">error bound</a>;
        one whose bound is beyond the published accuracy is kept but not ranked, and its slot is probed once more at once (not for fidelity probes, whose
        verdict was the slot's purpose). Rollups are refreshed every minute; raw measurements are kept forever unless an operator sets a retention period.
      </p>

      <h2 id="failures">What counts as a failure</h2>
      <p>Every probe is stored. A failure never counts as a slow success: it lowers the success rate and is listed by kind.</p>
      <ul>
        {ERROR_KINDS.map(([k, d]) => (
          <li key={k}>
            <code>{k}</code>: {d}
          </li>
        ))}
      </ul>

      <h2 id="finishes">Finish reasons</h2>
      <p>
        A finish reason is evidence. Only the finishes each protocol documents as a normal end may make a success; they are normalised to <code>stop</code>,{' '}
        <code>length</code> or <code>tool_calls</code>:
      </p>
      <ul>
        {Object.entries(CLEAN_FINISHES).map(([protocol, words]) => (
          <li key={protocol}>
            <code>{protocol}</code>:{' '}
            {Object.entries(words)
              .map(([word, normal]) => `${word} → ${normal}`)
              .join(', ')}
          </li>
        ))}
      </ul>
      <p>
        A finish set by a content filter ({[...FILTERED_FINISHES].join(', ')}) is a failure (<code>stream_error</code>): the provider cut a benign prompt’s
        answer short, so no generation of the requested length took place. A finish whose word names an abort, error, failure, cancellation, timeout,
        interruption, exception, disconnect, crash or overload (vLLM’s <code>abort</code>, a gateway’s <code>network_error</code>; also{' '}
        {[...FAILED_FINISHES].join(', ')}) is a failure of that kind (<code>rate_limited</code> when it names a rate limit), even when usage and{' '}
        <code>[DONE]</code> follow. Any other finish is kept with the measurement, which is then not rankable (<code>unknown_finish</code>). For the Responses
        API the finish is the response’s status: <code>completed</code> (tool_calls when it output function calls), <code>incomplete</code> with its reason (
        <code>max_output_tokens</code> → length), <code>failed</code> and <code>error</code> events are failures.
      </p>

      <h2 id="protocols">Protocols and what counts as a token</h2>
      <p>
        Every protocol is measured by the same definitions: TTFT is the first event carrying answer, reasoning or tool-call argument text; TTFAT the first
        answer or tool-call event; output speed and counts use the same events. Per protocol, the token-bearing events are: OpenAI Chat Completions, a chunk
        whose delta has content, reasoning or tool-call arguments; Anthropic Messages, a <code>content_block_delta</code> with text, thinking or{' '}
        <code>input_json_delta</code>; Bedrock ConverseStream, a <code>contentBlockDelta</code> frame; Gemini, a response with a text, thought or function-call
        part (function calls streamed in pieces through <code>partialArgs</code> are assembled into one call).
      </p>
      <p>
        <strong>OpenAI Responses API</strong> (<code>openai-responses</code>): <code>response.output_text.delta</code> and <code>response.refusal.delta</code>{' '}
        are answer; <code>response.reasoning_text.delta</code> and <code>response.reasoning_summary_text.delta</code> are reasoning;{' '}
        <code>response.function_call_arguments.delta</code> carries the arguments of the call opened by <code>response.output_item.added</code>. The{' '}
        <code>.done</code> events and the final response repeat what was streamed and are not counted again. The stream ends with{' '}
        <code>response.completed</code> or <code>response.incomplete</code> (there is no <code>[DONE]</code>); <code>response.failed</code> and{' '}
        <code>error</code> events are failures. The reported output count is <code>response.usage.output_tokens</code>;{' '}
        <code>output_tokens_details.reasoning_tokens</code> not streamed as text are hidden reasoning (generated inside TTFT). Every event carries a{' '}
        <code>sequence_number</code>: a gap, repeat or step backwards means events may be missing, and the measurement is not ranked (
        <code>sequence_broken</code>).
      </p>
      <p>
        Text sent again is counted once on every protocol and channel: a chunk repeating everything streamed so far (cumulative streams), a trailing whole
        message, a block start whose text the first delta repeats, arguments resent whole, the same reasoning in two fields. Usage is read where each protocol’s
        servers put it (top level, inside the choice, <code>x_groq.usage</code>, the final chunk, <code>message_delta</code>, <code>usageMetadata</code>,
        Bedrock <code>metadata</code>, <code>response.usage</code>); a count anywhere else is recorded and the measurement not ranked. A tool call is identified
        by its index: a later fragment with a new id but no function name continues it.
      </p>

      <h2 id="rankability">Rankable measurements</h2>
      <p>
        Every measurement is kept as evidence, but only a <em>rankable</em> one enters medians, ranks, tie bands, history and change points; the others are
        counted per endpoint by reason. A measurement is not rankable when anything it observed contradicts the number it would publish (field{' '}
        <code>rankable</code>, reasons in <code>notRankableReasons</code>):
      </p>
      <ul>
        {NOT_RANKABLE_REASONS.map((r) => (
          <li key={r}>
            <code>{r}</code>: {NOT_RANKABLE_REASON_TEXT[r]}
          </li>
        ))}
      </ul>
      <p>
        <strong>Token bases.</strong> Rankings use the <strong>o200k basis</strong> by default (decision 175), as Artificial Analysis normalises: tokens are the
        o200k_base count of the answer, reasoning and tool-argument text actually received, so a provider cannot rank higher by reporting more tokens than it
        sent, and models with different tokenizers are compared on one count. The <strong>reported basis</strong> (<code>basis=reported</code>) counts tokens
        the way the provider does (its own output count, with reasoning tokens it counts outside the output field added back and reasoning tokens it reports as
        not streamed taken out: see <a href="#hidden-reasoning">hidden reasoning</a>), but only when that count agrees with the text we received: within 25 % of
        the o200k_base count, final (never the provisional count of a stream cut short), and with every part of the stream understood. When the provider reports
        no count, the o200k_base count is used on both bases. A measurement whose own flags contradict its count is never ranked on either basis.
      </p>
      <p id="token-honesty">
        <strong>Token honesty.</strong> Each endpoint page and <code>/api/v1/endpoints/&#123;id&#125;/token-honesty</code> show the window’s ratio of the
        provider’s reported visible output tokens to the o200k_base count of the text received (Σ reported ÷ Σ o200k over its successful measurements, all
        workloads, the newest 5,000), with a percentile-bootstrap 95 % interval (1,000 resamples of the measurements; Efron &amp; Tibshirani 1993), beside the
        band the model’s tokenizer family should show on our probes’ English prose, code and JSON (e.g. 0.97–1.03 for o200k models, 0.95–1.15 for ~100–160k BPE
        vocabularies, 0.95–1.35 for Anthropic’s unpublished tokenizer). The bands are assumptions from each tokenizer’s lineage and vocabulary size, listed with
        their reasons in <code>lib/tokens/tokenizer-families.ts</code>, not measurements. When the whole interval lies above the band the endpoint is flagged{' '}
        <em>over-reported</em> (below: <em>under-reported</em>). On the default basis an over-report gains no rank; the flag tells readers of the reported basis
        how far to trust it.
      </p>

      <h3 id="error-bound">The error bound of every measurement</h3>
      <p>
        A probe’s times are only as good as the moment its process noticed each read. Every measurement therefore records how late the stamps that define its
        figures may have been taken, from the probing process’s own evidence: the time its event loop spent blocked waiting for data (libuv’s idle time; while
        it waits, no byte is pending, so a read’s bytes arrived after the last such wait), the thread’s wait in the CPU run queue (Linux{' '}
        <code>/proc/thread-self/schedstat</code>; a wake-up that waited for a CPU is late by that much), checkpoints every 2 ms and at every read, and how early
        request start may be (the stamp is taken just before the synchronous write). Everything the thread did between its last wait and the read (our own
        parsing, GC, other callbacks) counts as possible lateness, so the bound is an upper bound, never an estimate. GC pauses and the events coalesced into
        the defining reads are kept beside it as evidence. Two waits do not show in the thread&apos;s own clock and are counted apart (decision 308): a sleep
        longer than the 2 ms checkpoint timer allows (the thread could not wake when it should have, as when a virtual machine&apos;s hypervisor takes the vCPU)
        counts whole, and the run-queue wait of the kernel&apos;s network-processing threads (<code>ksoftirqd</code>, which deliver received bytes to the socket
        on a busy machine) is added to the stamps after it.
      </p>
      <p>
        A second bound comes from the order of reads on the socket: a read that returned fewer bytes than it asked for emptied the kernel&apos;s buffer, so the
        next read&apos;s bytes arrived after it; a stamp is then late by at most the time since the last check the process made before that previous read. On a
        busy machine, where the process is preempted between reads and never provably sleeps, this keeps the bound at the gap between reads instead of the whole
        stream. Each stamp takes the smaller of the two. When the client stopped reading the socket because the reader fell behind (the HTTP parser paused),
        neither bound knows when later bytes arrived: those stamps are unknown and the measurement is not rankable (decision 183).
      </p>
      <p>
        Stamps are only ever late, so the true TTFT, TTFAT and E2E lie between the measured value minus its bound and the measured value (
        <code>ttftBoundMs</code>, <code>e2eBoundMs</code>). Output speed is off by at most the larger lateness of its first and last token over the span between
        them, either way (<code>speedBoundPct</code>). A measurement is rankable only when its speed bound is at most{' '}
        <strong>±{TIMING_BOUND_LIMITS.speedPct} %</strong> and its TTFT bound at most <strong>+{TIMING_BOUND_LIMITS.ttftMs} ms</strong>; otherwise, or when the
        bound is unknown (no run-queue evidence on the platform, a compressed body whose decoded bytes cannot be matched to their reads), it is{' '}
        <code>timing_uncertain</code>. The bounds are published with every measurement (API, CSV, weekly dumps) and on each endpoint’s evidence view.
      </p>

      <h2 id="calibration">Calibration</h2>
      <p>
        A reference server streams at a configured output speed and TTFT. It is scheduled and probed like any endpoint and shown apart. It also reports what it
        really sent for every stream (its own write times, fetched after the probe by the stream’s id), so calibration shows two figures apart: the{' '}
        <strong>probe error</strong>, measured against what was delivered (rankable measurements only), and the <strong>server lateness</strong>, delivered
        against configured. A reference server that falls behind on a busy machine is not a probe that mis-measured.
      </p>

      <h2 id="sweeps">Sweeps: aggregate throughput and goodput</h2>
      <p>
        A <strong>sweep</strong> (only of an approved endpoint, with its owner’s consent and an admin’s consent to its limits: highest concurrency, window per
        level, number of levels) holds N concurrent streams for a fixed time at each level of a list (1, 2, 4, … 256). At each level every stream first
        completes one request and a minimum warm-up passes; then comes the <strong>steady window</strong>. Requests started inside it are the level’s measured
        requests (their TPS/user, TTFT and TPOT percentiles, success rate); after it, streams keep the concurrency at N until every measured request has ended,
        so each ran at N from start to end. Every stream is kept as evidence with its timeline.
      </p>
      <p>
        <strong>Aggregate output throughput</strong> = output tokens of all streams that arrive inside the steady window ÷ the window’s length (tokens/s): what
        the endpoint delivers in total at concurrency N, the x axis of the Pareto chart (per GPU when the endpoint declares its GPU count, like SemiAnalysis
        InferenceX). It is not TPS/user, and unlike LLMPerf’s “throughput” it does not include TTFT of one request.
        <strong> Goodput</strong> = requests completed inside the steady window that succeeded with TTFT ≤ 450 ms and TPOT ≤ 40 ms ÷ the window’s length
        (requests/s): the definition of the DistServe paper (Zhong et al., OSDI 2024) as in vLLM’s benchmark <code>--goodput</code>; the default limits are
        MLPerf Inference v5.0’s Llama 2 70B Interactive constraints (MLPerf applies them at the 99th percentile, we per request). A level’s N streams start
        spread over the first second of its warm-up (equal streams started in one instant would stay in lockstep), and only streams started in the steady window
        are measured. A sweep stops at the first HTTP 429 or SSRF-guard refusal, after 5 failed requests in a row or when more than 25% of the last 20 requests
        of a level failed (any kind of failure), when fewer than 90% of a level’s requests succeed, or after 20,000 requests in all, and says so. After each
        failure the stream waits before its next request (exponential backoff with jitter: 50–100 ms, doubling per failure in a row, at most 10 s). Every
        successful stream is stored; of the failed ones, the first 10 per level, the rest counted. A level is marked invalid when the event loop that timed any
        of its streams was too delayed (p99 above 50 ms) to trust its timing.
      </p>

      <h2 id="claims">Claims and imported data</h2>
      <p>
        <strong>Claims</strong> are figures published by vendors or the press, such as 1,038 TPS/user for Llama 4 Maverick on an NVIDIA DGX B200 (May 2025,
        measured by Artificial Analysis), stored with their source, date, unit and bound (exact, approximate, upper or lower bound).{' '}
        <strong>Imported datasets</strong> (the LLMPerf leaderboard raw data of December 2023, Apache-2.0) are third-party measurements with their provenance
        and licence; their summaries are recomputed and match LLMPerf’s own bit for bit. Neither is mixed with our measurements or ranked with them.
      </p>

      <h2 id="citing">Citing a figure</h2>
      <p>
        Every leaderboard answer has a snapshot id. <code>/s/&lt;id&gt;</code> and <code>/api/v1/snapshots/&lt;id&gt;</code> return exactly the same answer
        forever, and <code>?at=&lt;ISO time&gt;</code> shows the board as it stood then. See the <Link href="/api-docs">API documentation</Link>. Boards,
        snapshots and dump manifests are signed with the deployment’s Ed25519 key (a <code>Tokenpace-Signature</code> header over the exact bytes and an
        embedded <code>signature</code> member); dump files are signed over their SHA-256. The public keys, retired ones included, are at{' '}
        <code>/.well-known/tokenpace-keys.json</code>; <code>tokenpace verify</code>, <code>openssl</code> or Python’s <code>cryptography</code> check them
        (README, “Verify what was published”).
      </p>

      <h2 id="rules">Rules for listed endpoints</h2>
      <p>
        Every endpoint is held to <Link href="/rules">the published rules</Link>: it is the endpoint paying customers get, its metadata and price are declared,
        and benchmark detection, cached answers, junk output, clock padding, bursts and inflated counts are forbidden. Broken rules lead to annotated or
        excluded measurements and suspension, never to deleted data.
      </p>
    </>
  );
}
