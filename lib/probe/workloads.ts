/**
 * Workloads: what a probe sends. THE source of truth of the workload grid (the catalog seeds it,
 * the scheduler's cadence reads it, GET /api/v1/workloads lists it): four prompt categories
 * (prose, code, math, json) × four input lengths (~100, ~1k, ~10k, ~100k o200k tokens), each with
 * a fixed output budget of 256 tokens and concurrency 1 (TPS/user is a single-stream figure).
 * The ~100k workloads run only on endpoints whose declared context window holds them
 * (`minContextTokens`). `prose-1k` is the headline workload (probed every slot; lib/probe/cadence).
 *
 * A prompt is either ordinary or a fidelity prompt (lib/fidelity): the same length target and
 * material, with a checkable task and a three-part access code spread over the prompt.
 *
 * Prompts are deterministic per key (callers key them with the slot plus 128 secret random bits,
 * decision 173), and every part of one is drawn from a combinatorial pool with the key's whole
 * hash (./prompt-pool.ts, decision 174): an opening line, the instruction's wording and all of the
 * material, so no provider-side prompt, prefix or answer cache can have seen one before (a cached
 * prefill would make TTFT meaningless) and no fixed part tells a probe from a user. Lengths are measured with o200k_base and cut to the target, so they land within a
 * few tokens of it (the test allows ±10 %).
 */
import { createHash } from 'node:crypto';
import { createFidelityTask, type FidelityExpected } from '../fidelity/tasks';
import { hashStream, openingLine, phrase, pick, WORDS } from './prompt-pool';
import { decodeO200k, encodeO200k } from '../tokens/o200k';

/** Prompt category. */
export type WorkloadCategory = 'prose' | 'code' | 'math' | 'json';

/** One workload definition (seeded into the catalog's `workloads` table). */
export interface Workload {
  /** stable id, `<category>-<length>`: prose-100, code-1k, json-10k... */
  slug: string;
  name: string;
  category: WorkloadCategory;
  /** prompt length target, o200k tokens */
  inputTokensTarget: number;
  /** output budget sent as max_tokens */
  maxOutputTokens: number;
  /** concurrent streams per probe; 1 for TPS/user */
  concurrency: number;
  /** part of the scheduled grid (every workload is; lib/probe/cadence decides how often) */
  scheduled: boolean;
  /** the headline workload: probed every slot, the leaderboard's default */
  headline: boolean;
  /** smallest declared context window (tokens) of an endpoint that runs this workload */
  minContextTokens: number;
  /** one sentence for people: what the prompt asks and how long it is */
  description: string;
  /**
   * Prompt-cache family (issue 25, decision 260): `cold` is scheduled and its probe is followed at
   * once by the `warm` request (same job, same secret key), which shares the cold prompt's first
   * `sharedPrefixTokens` tokens; the warm workload is never scheduled on its own. Absent: an
   * ordinary workload.
   */
  cacheRole?: 'cold' | 'warm';
  /** cache family: o200k tokens the warm prompt shares with the cold one (≥ 1,024, every provider's caching threshold) */
  sharedPrefixTokens?: number;
  /** the cold workload's warm partner (cold only) */
  warmSlug?: string;
  /**
   * Own cadence, minutes between probes (lib/probe/cadence): the costly families run less often
   * than the grid. Absent: the grid's cadence (headline every slot, others every 180 minutes).
   */
  cadenceMinutes?: number;
  /**
   * Structured-output family (issue 25 item 2): the request asks for `json_schema` output or a
   * forced `tool_call` in the protocol's own shape (adapters/structured-output.ts); its speed is
   * compared with `freeTextSlug`, the free-text workload of the same lengths. Absent: free text.
   */
  outputKind?: 'json_schema' | 'tool_call';
  /** structured family: the free-text workload of the same input and output lengths */
  freeTextSlug?: string;
  /**
   * Agent turns (issue 25 item 3, decision 267): this workload is turn `agentTurn` (1-based) of the
   * agent conversation; turn 1 is scheduled and its job sends every turn in order (lib/probe/agent-prompts).
   */
  agentTurn?: number;
  /**
   * Cache-lifetime series (decision 268): the gap since the series' previous request, minutes (0
   * for the seed). Members after the seed are due `seriesOffsetMinutes` after it, as their own jobs.
   */
  cacheLifetimeGapMinutes?: number;
  /** series member: minutes after the seed's phase point at which it is due (0 for the seed) */
  seriesOffsetMinutes?: number;
  /** series member: the seed's slug (absent on the seed itself) */
  seriesSeedSlug?: string;
  /** series member: the member sent just before it (the gap is measured from that request) */
  seriesPreviousSlug?: string;
}

/** Output budget of every workload, tokens. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 256;

/** The headline workload: every endpoint, every slot; the leaderboard's default. */
export const HEADLINE_WORKLOAD_SLUG = 'prose-1k';

/** Input lengths of the grid. */
export const WORKLOAD_INPUT_LENGTHS = [
  { label: '100', tokens: 100 },
  { label: '1k', tokens: 1_000 },
  { label: '10k', tokens: 10_000 },
  { label: '100k', tokens: 100_000 },
] as const;
export const WORKLOAD_CATEGORIES: readonly WorkloadCategory[] = ['prose', 'code', 'math', 'json'];
const CATEGORY_NAMES: Record<WorkloadCategory, string> = { prose: 'Prose', code: 'Code', math: 'Math', json: 'JSON' };
const CATEGORY_TASKS: Record<WorkloadCategory, string> = {
  prose: 'writing a short story from narrative notes',
  code: 'rewriting a Python module with type hints and docstrings',
  math: 'solving word problems step by step',
  json: 'aggregating inventory records into JSON',
};

/** Context a workload needs: its input plus output budget plus 10 % tokenizer slack, rounded up to 1k. */
function contextNeeded(inputTokens: number, maxOutputTokens: number): number {
  return Math.ceil(((inputTokens + maxOutputTokens) * 1.1) / 1000) * 1000;
}

/** All workloads, in a stable order (category-major, then input length). */
export const WORKLOADS: readonly Workload[] = WORKLOAD_CATEGORIES.flatMap((category) =>
  WORKLOAD_INPUT_LENGTHS.map(({ label, tokens }) => {
    const slug = `${category}-${label}`;
    return {
      slug,
      name: `${CATEGORY_NAMES[category]}, ~${label} input tokens`,
      category,
      inputTokensTarget: tokens,
      maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
      concurrency: 1,
      scheduled: true,
      headline: slug === HEADLINE_WORKLOAD_SLUG,
      minContextTokens: contextNeeded(tokens, DEFAULT_MAX_OUTPUT_TOKENS),
      description: `${CATEGORY_NAMES[category]}: ${CATEGORY_TASKS[category]}; about ${tokens.toLocaleString('en-US')} input tokens (o200k), up to ${DEFAULT_MAX_OUTPUT_TOKENS} output tokens, one stream.`,
    };
  }),
);

/** Prompt-cache family: shared prefix, o200k tokens (above the 1,024-token threshold of OpenAI, Anthropic Sonnet/Opus, Gemini implicit caching). */
export const CACHE_SHARED_PREFIX_TOKENS = 1_900;
/** Prompt-cache family: every 360 minutes, 4 cold + 4 warm requests a day (a low cadence: each is a ~2k-token request). */
export const CACHE_CADENCE_MINUTES = 360;

/**
 * The prompt-cache family (issue 25, decision 260): `cache-cold-2k`, a ~2,000-token prompt whose
 * first {@link CACHE_SHARED_PREFIX_TOKENS} tokens no provider can have seen (they open with the
 * request's secret nonce), then `cache-warm-2k`, the same prefix with a different question, sent
 * right after the cold answer ends. TTFT warm against cold and the cached tokens the provider
 * reports are the figures; prose material, 256 output tokens, one stream.
 */
export const CACHE_WORKLOADS: readonly Workload[] = (['cold', 'warm'] as const).map((role) => ({
  slug: `cache-${role}-2k`,
  name: `Prompt cache, ${role}, ~2k input tokens`,
  category: 'prose' as const,
  inputTokensTarget: 2_000,
  maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
  concurrency: 1,
  scheduled: role === 'cold',
  headline: false,
  minContextTokens: contextNeeded(2_000, DEFAULT_MAX_OUTPUT_TOKENS),
  description:
    role === 'cold'
      ? `Prompt cache, cold: a story from narrative notes, about 2,000 input tokens whose first ${CACHE_SHARED_PREFIX_TOKENS.toLocaleString('en-US')} are new to the provider; up to ${DEFAULT_MAX_OUTPUT_TOKENS} output tokens, one stream. Followed at once by cache-warm-2k.`
      : `Prompt cache, warm: sent right after cache-cold-2k with the same first ${CACHE_SHARED_PREFIX_TOKENS.toLocaleString('en-US')} tokens and a different question; a provider with a prompt cache serves the prefix from it (lower TTFT, cached tokens reported).`,
  cacheRole: role,
  sharedPrefixTokens: CACHE_SHARED_PREFIX_TOKENS,
  ...(role === 'cold' ? { warmSlug: 'cache-warm-2k' } : {}),
  cadenceMinutes: CACHE_CADENCE_MINUTES,
}));

/** True for a member of a workload family with its own cadence (prompt cache, structured output, agent turns, cache lifetime), false for the grid and unknown slugs. */
export function isFamilyWorkload(slug: string): boolean {
  return [...CACHE_WORKLOADS, ...STRUCTURED_WORKLOADS, ...AGENT_WORKLOADS, ...CACHE_LIFETIME_WORKLOADS].some((w) => w.slug === slug);
}

/** Structured-output family: every 360 minutes each (4 requests a day per workload). */
export const STRUCTURED_CADENCE_MINUTES = 360;

/**
 * The structured-output family (issue 25 item 2): `structured-json-1k` sends the protocol's
 * structured-output request, `tool-call-1k` a forced tool call with streamed arguments; both ask
 * for the story of prose-1k (same ~1,000-token notes, 256 output tokens) as {title, story}, so
 * their speed against prose-1k's is the penalty of the constraint. The answer's validity against
 * the schema is their fidelity check (every probe).
 */
export const STRUCTURED_WORKLOADS: readonly Workload[] = (['json_schema', 'tool_call'] as const).map((kind) => ({
  slug: kind === 'json_schema' ? 'structured-json-1k' : 'tool-call-1k',
  name: kind === 'json_schema' ? 'Structured output (JSON schema), ~1k input tokens' : 'Forced tool call, ~1k input tokens',
  category: 'prose' as const,
  inputTokensTarget: 1_000,
  maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
  concurrency: 1,
  scheduled: true,
  headline: false,
  minContextTokens: contextNeeded(1_000, DEFAULT_MAX_OUTPUT_TOKENS),
  description:
    kind === 'json_schema'
      ? `Structured output: the prose-1k story requested through the protocol's own JSON-schema output ({title, story}); about 1,000 input tokens, up to ${DEFAULT_MAX_OUTPUT_TOKENS} output tokens; the answer must validate against the schema.`
      : `Forced tool call: the prose-1k story as the streamed arguments of a forced function call ({title, story}); about 1,000 input tokens, up to ${DEFAULT_MAX_OUTPUT_TOKENS} output tokens; the arguments must validate against the schema.`,
  cadenceMinutes: STRUCTURED_CADENCE_MINUTES,
  outputKind: kind,
  freeTextSlug: 'prose-1k',
}));

/** Agent turns: one conversation a day (the 2 % family ceiling of the probe budget, decision 267). */
export const AGENT_CADENCE_MINUTES = 1_440;
/** Turns of the agent conversation (lib/probe/agent-prompts AGENT_TURNS; kept equal by a test). */
const AGENT_TURN_COUNT = 3;
/** Nominal prompt of turn t: the ~1,100-token task, then per earlier turn its call (≤ 256 output tokens) and a ~300-token tool result. */
function agentTurnInputTokens(turn: number): number {
  return 1_100 + (turn - 1) * (DEFAULT_MAX_OUTPUT_TOKENS + 300);
}

/**
 * Agent turns (issue 25 item 3, decision 267): a 3-turn conversation with forced tool calls and
 * their results fed back in each protocol's own shapes, the prefix growing every turn. One
 * workload per turn, so each turn's TTFT, TPS/user, cached tokens and hit share come from the one
 * engine like any workload's; only turn 1 is scheduled (its job sends the turns in order).
 */
export const AGENT_WORKLOADS: readonly Workload[] = Array.from({ length: AGENT_TURN_COUNT }, (_, i) => {
  const turn = i + 1;
  const input = agentTurnInputTokens(turn);
  return {
    slug: `agent-turn-${turn}`,
    name: `Agent conversation, turn ${turn} of ${AGENT_TURN_COUNT}`,
    category: 'prose' as const,
    inputTokensTarget: input,
    maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
    concurrency: 1,
    scheduled: turn === 1,
    headline: false,
    minContextTokens: contextNeeded(agentTurnInputTokens(AGENT_TURN_COUNT), DEFAULT_MAX_OUTPUT_TOKENS),
    description:
      turn === 1
        ? `Agent conversation, turn 1: a story task with ~1,100 tokens of notes; the model is forced to call save_section ({title, story}, streamed arguments, up to ${DEFAULT_MAX_OUTPUT_TOKENS} tokens). Followed at once by turns 2 and 3.`
        : `Agent conversation, turn ${turn}: the whole conversation so far (task, each earlier call and its ~300-token tool result, fed back in the protocol's own tool-result shape), about ${input.toLocaleString('en-US')} input tokens at most; the model calls save_section again. A prompt cache serves the earlier turns.`,
    cadenceMinutes: AGENT_CADENCE_MINUTES,
    outputKind: 'tool_call' as const,
    agentTurn: turn,
  };
});

/** Cache-lifetime series: once a day (the 2 % family ceiling, decision 268). */
export const CACHE_LIFETIME_CADENCE_MINUTES = 1_440;
/** Gaps of the checks since the series' previous request, minutes (increasing; OpenAI and Anthropic document ~5-minute lifetimes). */
export const CACHE_LIFETIME_GAPS_MINUTES = [2, 5, 15] as const;

/**
 * The cache-lifetime series (issue 25 item 1, decision 268): a seed request with a ~1,050-token
 * prefix new to the provider, then checks with the same prefix after gaps of 2, 5 and 15 minutes
 * since the request before (due 2, 7 and 22 minutes after the seed, each its own job). Each
 * check's hit share is an engine figure; the lifetime is the longest gap still hit (lib/stats/cache-lifetime).
 */
export const CACHE_LIFETIME_WORKLOADS: readonly Workload[] = [0, ...CACHE_LIFETIME_GAPS_MINUTES].map((gap, i, all) => {
  const slug = gap === 0 ? 'cache-lifetime-seed' : `cache-lifetime-${gap}m`;
  const offset = all.slice(0, i + 1).reduce((s, g) => s + g, 0);
  const previous = i === 0 ? undefined : all[i - 1] === 0 ? 'cache-lifetime-seed' : `cache-lifetime-${all[i - 1]}m`;
  return {
    slug,
    name: gap === 0 ? 'Cache lifetime, seed request' : `Cache lifetime, same prefix after ${gap} min`,
    category: 'prose' as const,
    inputTokensTarget: 1_100,
    maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
    concurrency: 1,
    scheduled: true,
    headline: false,
    minContextTokens: contextNeeded(1_100, DEFAULT_MAX_OUTPUT_TOKENS),
    description:
      gap === 0
        ? 'Cache lifetime, seed: a ~1,100-token prompt whose first ~1,050 tokens are new to the provider; the checks of the series repeat them after increasing gaps.'
        : `Cache lifetime, check: the seed's ~1,050-token prefix again, ${gap} minutes after the series' previous request, with a new question; a hit says the provider's cache still held it.`,
    cadenceMinutes: CACHE_LIFETIME_CADENCE_MINUTES,
    cacheLifetimeGapMinutes: gap,
    seriesOffsetMinutes: offset,
    ...(i === 0 ? {} : { seriesSeedSlug: 'cache-lifetime-seed', seriesPreviousSlug: previous }),
  };
});

/** Every workload: the grid, then the families (the catalog seeds all of them). */
export const ALL_WORKLOADS: readonly Workload[] = [...WORKLOADS, ...CACHE_WORKLOADS, ...STRUCTURED_WORKLOADS, ...AGENT_WORKLOADS, ...CACHE_LIFETIME_WORKLOADS];

/**
 * Whether an endpoint with declared context window `contextWindowTokens` (null = not declared)
 * can run `workload`. Undeclared windows run everything up to ~10k input (every current chat
 * model holds 16k), never the ~100k workloads.
 */
export function fitsContextWindow(workload: Pick<Workload, 'minContextTokens'>, contextWindowTokens: number | null): boolean {
  if (contextWindowTokens === null) return workload.minContextTokens <= 16_000;
  return contextWindowTokens >= workload.minContextTokens;
}

/** The workload with `slug`; throws Error when there is none. */
export function getWorkloadOrThrow(slug: string): Workload {
  const w = ALL_WORKLOADS.find((x) => x.slug === slug);
  if (!w) throw new Error(`unknown workload ${slug}`);
  return w;
}

/**
 * Each category's instruction as clauses of interchangeable wordings (./prompt-pool.ts `phrase`):
 * 4–6 wordings a clause, 4 clauses, so ≥ 256 wordings of one request per category, none fixed;
 * and every clause carries a slot (a word of the pool or a number), so two probes that happen to
 * pick the same wordings still share no long run of tokens (a fixed 20-token clause shared by 1 in
 * 4 pairs was the longest common part of two probes; decision 173). The numbers only shape the
 * request (a length, a count), never what the measurement counts.
 */
export const INSTRUCTIONS: Record<WorkloadCategory, readonly (readonly string[])[]> = {
  prose: [
    [
      'Read the notes below about the {adjective} {noun},',
      'Please go through these notes on a {noun} in {city},',
      'Below are some notes {firstName} made;',
      'Take the {adjective} notes below',
      'Have a look at these notes from {city},',
    ],
    [
      'then write an original short story about a {noun}',
      'and turn them into a new short story set in {city}',
      'then write me a fresh short story for {firstName}',
      'and write an original piece of fiction with a {adjective} {noun} in it',
      'then compose a {adjective} short story',
    ],
    [
      'of at least {380-460} words that uses them.',
      'that uses them, {380-460} words or more.',
      'using all of them, no shorter than {380-460} words.',
      'built on them, at least {380-460} words long.',
    ],
    [
      'Flowing {adjective} prose only, no lists or headings.',
      'Write prose only, with no {adjective} lists or headings.',
      'No headings or bullet points, just prose {firstName} can read aloud.',
      'Keep it as continuous prose without lists, ending in {city}.',
      'Plain paragraphs please, no headings, {adjective} if you can.',
    ],
  ],
  code: [
    [
      'Review the Python module below for the {noun} service.',
      'Here is a Python module from the {city} team.',
      'Look over the following Python module {firstName} wrote.',
      'Please review this {adjective} Python module.',
      'Below is a Python module I wrote for a {noun}.',
    ],
    [
      'Then write an improved version of the {noun} module',
      'Rewrite the entire {adjective} module',
      'Give me a cleaned-up version of all of it, {firstName} will merge it,',
      'Produce a better version of the full module for the {noun} repo',
    ],
    [
      'with type hints and a {adjective} docstring for every function,',
      'adding type hints and docstrings to each {noun} function,',
      'so every function has type hints and a docstring for {firstName},',
      'with annotations and a docstring on each function, lines under {80-120} characters,',
    ],
    [
      'followed by a short explanation of your changes for {firstName}.',
      'then briefly explain what you changed, in {10-40} lines at most.',
      'and end with a short summary of the changes for the {city} team.',
      'plus a few sentences on what you changed and why, as a {adjective} reviewer would.',
    ],
  ],
  math: [
    [
      'Solve each of the problems below for {firstName}',
      'Work through every problem below from the {city} office',
      'Please answer each problem that follows, {firstName},',
      'Go through the {adjective} word problems below',
      'Here are some word problems about a {noun}; solve each one',
    ],
    [
      'step by step, showing the {adjective} arithmetic,',
      'showing every step of the arithmetic for the {noun},',
      'with the working shown for {city},',
      'one step at a time with the calculations visible, as for a class of {12-40},',
    ],
    [
      'and finish each one with a line "Answer: <number>" ({adjective} or not).',
      'ending each with "Answer: <number>" on its {adjective} own line.',
      'and close every problem with the line "Answer: <number>" for {firstName}.',
      'putting "Answer: <number>" at the end of each of the {city} ones.',
    ],
    [
      'Keep going until every problem is solved; {firstName} checks them.',
      'Do not stop before the last problem, even past number {20-60}.',
      'Continue until all of them are done for the {noun}.',
      'Please cover every problem, {adjective} ones too.',
    ],
  ],
  json: [
    [
      'Below is a JSON array of inventory records from {city}.',
      'Here are some inventory records as a JSON array, sent by {firstName}.',
      'The JSON array below holds inventory records of the {noun} shop.',
      'I have a JSON array of stock records below ({adjective} data).',
    ],
    [
      'Return a JSON array with one object per warehouse (about {10-40} of them)',
      'Build a JSON array for {firstName} holding one object for each {noun} warehouse',
      'Give back a JSON array, one object per warehouse, for the {noun} report,',
      'Output a JSON array with an object for every {adjective} warehouse',
    ],
    [
      'containing {adjective} "warehouse", "total_units" and "skus" (sorted),',
      'with the keys "warehouse", "total_units" and "skus" ({firstName} wants them sorted),',
      'that has "warehouse", "total_units" and a sorted "skus" list ({city} style),',
      'holding "warehouse", "total_units" and "skus" in {adjective} sorted order,',
    ],
    [
      'then a JSON object with the {10-20} most valuable items. Output only JSON.',
      'then a {adjective} JSON object listing the most valuable items. Only JSON, please.',
      'followed by a JSON object of the {10-20} most valuable items, and nothing but JSON.',
      'and after it a JSON object with the {noun} items by value. Reply with JSON only.',
    ],
  ],
};

/** Sentence templates of prose material: one of these, its slots filled from WORDS. */
function proseSentence(random: () => number): string {
  const r = () => pick(random, WORDS.adjective);
  const n = () => pick(random, WORDS.noun);
  const v = () => pick(random, WORDS.verb);
  const place = () => pick(random, WORDS.place);
  const time = () => pick(random, WORDS.time);
  switch (Math.floor(random() * 6)) {
    case 0:
      return `The ${r()} ${n()} ${v()} the ${r()} ${n()} near ${place()} ${time()}. `;
    case 1:
      return `${capitalize(time())}, a ${r()} ${n()} ${v()} a ${n()} at ${place()}. `;
    case 2:
      return `Nobody at ${place()} ${v()} the ${n()} until the ${r()} ${n()} arrived ${time()}. `;
    case 3:
      return `A ${n()} from ${pick(random, WORDS.city)} ${v()} the ${r()} ${n()} ${time()}. `;
    case 4:
      return `Near ${place()}, the ${n()} and the ${r()} ${n()} ${v()} each other ${time()}. `;
    default:
      return `${pick(random, WORDS.firstName)} ${v()} the ${r()} ${n()} at ${place()} ${time()}. `;
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * One Python function of code material: one of four shapes, every name, operator and constant drawn
 * from the pool, so no two probes share a function body beyond a few keywords (a single fixed
 * shape with four slots made two probes share a 58-token run).
 */
function codeFunction(random: () => number, i: number): string {
  const n = () => pick(random, WORDS.noun);
  const name = `${pick(random, WORDS.verb)}_${n()}_${i}`;
  const arg = `${pick(random, WORDS.adjective)}_${pick(random, ['items', 'values', 'rows', 'records', 'entries', 'readings'])}`;
  const acc = `${n()}_${pick(random, ['total', 'acc', 'result', 'running', 'score', 'subtotal'])}`;
  const item = pick(random, ['item', 'value', 'row', 'entry', 'reading', 'x']);
  const op = () => pick(random, ['+', '-', '*']);
  const cmp = () => pick(random, ['>', '<', '>=', '<=']);
  const k = 2 + Math.floor(random() * 9);
  const m = 3 + Math.floor(random() * 400);
  const limit = 10 + Math.floor(random() * 9000);
  switch (Math.floor(random() * 4)) {
    case 0:
      return `def ${name}(${arg}, limit=${limit}):\n    ${acc} = ${Math.floor(random() * 10)}\n    for index, ${item} in enumerate(${arg}):\n        if index % ${k} == 0 and ${item} ${cmp()} ${m}:\n            ${acc} += ${item} ${op()} ${k}\n        elif ${acc} ${cmp()} limit:\n            break\n    return ${acc}\n\n`;
    case 1:
      return `def ${name}(${arg}, ${item}_floor=${m}):\n    """Keep the ${pick(random, WORDS.adjective)} ${n()} readings above ${item}_floor."""\n    kept = [${item} ${op()} ${k} for ${item} in ${arg} if ${item} ${cmp()} ${item}_floor]\n    return sorted(kept)[:${limit % 97}]\n\n`;
    case 2:
      return `def ${name}(${arg}):\n    ${acc} = {}\n    for ${item} in ${arg}:\n        key = ${item} % ${k + m}\n        ${acc}[key] = ${acc}.get(key, ${Math.floor(random() * 5)}) ${op()} ${item}\n    return max(${acc}.values(), default=${limit})\n\n`;
    default:
      return `def ${name}(${arg}, step=${k}):\n    ${acc} = ${limit}\n    while ${arg} and ${acc} ${cmp()} ${m}:\n        ${acc} = ${acc} ${op()} ${arg}.pop() // step\n    return ${acc}\n\n`;
  }
}

/**
 * One word problem of math material: one of four shapes with every quantity, actor and place drawn
 * from the pool (one fixed shape made two probes share a 19-token run at the median).
 */
function mathProblem(random: () => number, i: number): string {
  const a = 12 + Math.floor(random() * 900);
  const b = 3 + Math.floor(random() * 90);
  const c = 2 + Math.floor(random() * 40);
  const who = `${pick(random, WORDS.adjective)} ${pick(random, WORDS.noun)}`;
  const city = pick(random, WORDS.city);
  const item = pick(random, WORDS.item);
  const head = `Problem ${i + 1}:`;
  switch (Math.floor(random() * 4)) {
    case 0:
      return `${head} A ${who} in ${city} ships ${a} ${item} per day for ${b} days, then loses ${c} percent of them. How many remain? `;
    case 1:
      return `${head} ${pick(random, WORDS.firstName)} buys ${b} ${item} at ${a} cents each in ${city} and pays with ${Math.ceil((a * b) / 100) + c} dollars. What is the change in cents? `;
    case 2:
      return `${head} Every ${c} minutes the ${who} fills ${b} ${item}; how many are filled after ${a} minutes in ${city}? `;
    default:
      return `${head} ${city} holds ${a} ${item}. The ${who} takes ${b} and gives back ${c} of them ${pick(random, WORDS.time)}. How many are left? `;
  }
}

function materialUnit(category: WorkloadCategory, random: () => number, i: number): string {
  switch (category) {
    case 'prose':
      return proseSentence(random);
    case 'code':
      return codeFunction(random, i);
    case 'math':
      return mathProblem(random, i);
    case 'json': {
      const record = {
        sku: `SKU-${Math.floor(random() * 1_000_000)
          .toString()
          .padStart(6, '0')}`,
        item: `${pick(random, WORDS.adjective)} ${pick(random, WORDS.item)}`,
        warehouse: pick(random, WORDS.city),
        units: Math.floor(random() * 5000),
        unit_price: Math.round(random() * 50000) / 100,
      };
      return (i === 0 ? '' : ',\n') + JSON.stringify(record);
    }
  }
}

/** A built prompt; `fidelity` is the expected reply when the prompt carries a fidelity check. */
export interface BuiltPrompt {
  prompt: string;
  /** SHA-256 hex of `prompt` (stored with each measurement). */
  promptHash: string;
  /** Expected reply of the fidelity check (lib/fidelity), null for an ordinary prompt. */
  fidelity: FidelityExpected | null;
}

/**
 * The prompt for `workload` in the slot named `slotKey` (any string that names the slot, e.g. its
 * ISO start time). Same inputs → same prompt, byte for byte; a different key → a different opening line
 * and different material. The prompt's o200k length is within a few tokens of inputTokensTarget
 * (fidelity prompts: their fixed check text makes a ~100-token prompt longer, up to ~250).
 *
 * `options.fidelity`: build a fidelity prompt (lib/fidelity/tasks): the category's checkable task
 * replaces the usual instruction, and the three parts of the access code sit right after the
 * instruction, in the middle of the material and at its end, before the closing check block.
 * Throws RangeError for a target below 50 tokens (the instruction alone needs ~50).
 */
export function buildPrompt(
  workload: Pick<Workload, 'slug' | 'category' | 'inputTokensTarget'> & Partial<Workload>,
  slotKey: string,
  options: { fidelity?: boolean } = {},
): BuiltPrompt {
  if (workload.inputTokensTarget < 50) throw new RangeError('inputTokensTarget must be at least 50');
  const digest = createHash('sha256').update(`${slotKey}\u0000${workload.slug}`).digest();
  // Every draw comes from the key's whole hash (./prompt-pool.ts): the opening line, the
  // instruction's wording and all of the material, so no part of the prompt is predictable.
  const random = hashStream(digest);
  const opening = openingLine(random);
  const instruction = phrase(random, INSTRUCTIONS[workload.category]);
  const task = options.fidelity ? createFidelityTask(workload.category, `${slotKey}\u0000${workload.slug}`) : null;
  // The opening line comes FIRST: prefix caches match from the start of the prompt.
  const head = `${opening} ${task ? task.instruction : instruction}\n\n${task ? task.notes[0] : ''}`;
  const open = workload.category === 'json' ? '[\n' : '';
  const close = workload.category === 'json' ? '\n]' : '';
  const middleNote = task ? task.notes[1] : '';
  const tail = task ? `\n${task.notes[2]}\n${task.checkBlock}` : '';
  const budget = workload.inputTokensTarget - encodeO200k(head + open + middleNote + close + tail).length;

  let material = '';
  let i = 0;
  let tokens: number[] = [];
  while (tokens.length < budget) {
    const parts: string[] = [];
    // Roughly 4 characters per token: generate what the remaining budget needs, then measure.
    const wantChars = (budget - tokens.length) * 4 + 40;
    let chars = 0;
    while (chars < wantChars) {
      const unit = materialUnit(workload.category, random, i++);
      parts.push(unit);
      chars += unit.length;
    }
    material += parts.join('');
    tokens = encodeO200k(material);
  }
  // Cut at the token budget; the material is ASCII, so any token boundary is a character boundary.
  let body = decodeO200k(tokens.slice(0, Math.max(0, budget)));
  if (task) {
    // Part 2 of the access code goes at a line or sentence boundary near the middle of the material.
    const mid = Math.floor(body.length / 2);
    const boundary = workload.category === 'code' || workload.category === 'json' ? body.lastIndexOf('\n', mid) + 1 : body.lastIndexOf('. ', mid) + 2;
    const at = boundary > 1 ? boundary : 0;
    body = body.slice(0, at) + middleNote + body.slice(at);
  }
  const prompt = head + open + body + close + tail;
  return { prompt, promptHash: createHash('sha256').update(prompt).digest('hex'), fidelity: task ? task.expected : null };
}
