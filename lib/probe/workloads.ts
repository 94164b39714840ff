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
 * Prompts are deterministic per slot key, so every endpoint probed in one slot gets the very same
 * prompt (a fair comparison), and they begin with a nonce derived from the slot key, so no
 * provider-side prompt or prefix cache can have seen them before (a cached prefill would make TTFT
 * meaningless). Lengths are measured with o200k_base and cut to the target, so they land within a
 * few tokens of it (the test allows ±10 %).
 */
import { createHash } from 'node:crypto';
import { createFidelityTask, type FidelityExpected } from '../fidelity/tasks';
import { mulberry32 } from '../stats/random';
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
  const w = WORKLOADS.find((x) => x.slug === slug);
  if (!w) throw new Error(`unknown workload ${slug}`);
  return w;
}

const INSTRUCTIONS: Record<WorkloadCategory, string> = {
  prose:
    'Read the notes below, then write an original short story of at least 400 words that uses them. Write flowing prose only, no lists or headings.',
  code:
    'Review the Python module below. Then write an improved version of the whole module with type hints and a docstring for every function, followed by a short explanation of your changes.',
  math:
    'Solve each of the problems below step by step, showing the arithmetic, and finish each one with a line "Answer: <number>". Keep going until every problem is solved.',
  json:
    'Below is a JSON array of inventory records. Return a JSON array with one object per warehouse containing "warehouse", "total_units" and "skus" (sorted), then a JSON object with the five most valuable items. Output only JSON.',
};

const WORDS = {
  adjective: ['quiet', 'amber', 'restless', 'distant', 'narrow', 'silver', 'crowded', 'patient', 'hollow', 'bright', 'weathered', 'curious'],
  noun: ['lighthouse', 'courier', 'orchard', 'engineer', 'market', 'river', 'library', 'fox', 'violinist', 'harbor', 'bridge', 'archive'],
  verb: ['watched', 'followed', 'repaired', 'remembered', 'crossed', 'painted', 'measured', 'guarded', 'visited', 'described'],
  place: ['the old quarter', 'the northern pier', 'a mountain pass', 'the night train', 'the flooded meadow', 'the observatory'],
  time: ['at dawn', 'before the storm', 'every Tuesday', 'long after midnight', 'in early spring', 'during the festival'],
  item: ['bolts', 'lanterns', 'cables', 'notebooks', 'valves', 'sensors', 'batteries', 'pumps', 'filters', 'gears'],
  city: ['Lyon', 'Osaka', 'Denver', 'Porto', 'Tallinn', 'Recife', 'Perth', 'Accra'],
};

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function materialUnit(category: WorkloadCategory, random: () => number, i: number): string {
  const r = () => pick(random, WORDS.adjective);
  const n = () => pick(random, WORDS.noun);
  switch (category) {
    case 'prose':
      return `The ${r()} ${n()} ${pick(random, WORDS.verb)} the ${r()} ${n()} near ${pick(random, WORDS.place)} ${pick(random, WORDS.time)}. `;
    case 'code': {
      const name = `${pick(random, WORDS.verb)}_${n()}_${i}`;
      const k = 2 + Math.floor(random() * 9);
      return `def ${name}(items, limit=${k * 10}):\n    total = 0\n    for index, item in enumerate(items):\n        if index % ${k} == 0 and item > ${k}:\n            total += item * ${k}\n        elif total > limit:\n            break\n    return total\n\n`;
    }
    case 'math': {
      const a = 12 + Math.floor(random() * 900);
      const b = 3 + Math.floor(random() * 90);
      const c = 2 + Math.floor(random() * 40);
      return `Problem ${i + 1}: A ${n()} ships ${a} ${pick(random, WORDS.item)} per day for ${b} days, then loses ${c} percent of them. How many remain? `;
    }
    case 'json': {
      const record = {
        sku: `SKU-${(i * 7919 + Math.floor(random() * 1000)) % 100000}`,
        item: pick(random, WORDS.item),
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
 * ISO start time). Same inputs → same prompt, byte for byte; a different slot → a different nonce
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
  const nonce = digest.subarray(0, 8).toString('hex');
  const random = mulberry32(digest.readUInt32BE(8)); // deterministic, seeded from the slot key's hash
  const task = options.fidelity ? createFidelityTask(workload.category, `${slotKey}\u0000${workload.slug}`) : null;
  // The nonce comes FIRST: prefix caches match from the start of the prompt.
  const head = `Request ${nonce}. ${task ? task.instruction : INSTRUCTIONS[workload.category]}\n\n${task ? task.notes[0] : ''}`;
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
