/**
 * Issue 20 item 6, "Done when" (decision 176): every trick of the gaming reference server
 * (lib/reference-server/gaming-server.ts), each row of the issue's table and the variants around
 * each rule's edge, ends not rankable or not ranked; the honest reference server at 5,000 TPS/user
 * with 1 and 4 tokens per chunk stays rankable. Through the real worker task, the SSRF-guarded
 * fetch over real local HTTP, and real Postgres; the leaderboard is the real answer. The servers are
 * real `tokenpace reference-server` processes (`--gaming`, and the honest one at 5,000 TPS/user), so
 * their timers never wait for this process's parsing and database work. Timing evidence is injected
 * quiet (decision 180) except just over the numeric edges (see below).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog } from '@/db/seed';
import { endpoints, measurements, workloads } from '@/db/schema';
import { getTokenHonesty } from '@/db/queries/token-honesty';
import { createTestDatabase, type TestDatabase } from '@/db/test-support/test-database';
import { getLeaderboardAnswer } from '@/server/leaderboard';
import { leaderboardQuerySchema } from '@/lib/api/schemas';
import { HOLD_RATIO, PADDING_RATIO, SHORT_STALL_MS } from '@/lib/probe/plausible-delivery';
import { injectLateness, restoreLateness } from '@/lib/probe/test-support/injected-lateness';
import type { FetchLike } from '@/lib/probe/types';
import { GAMING_TRICKS, type GamingTrick } from '@/lib/reference-server/gaming-server';
import { runProbeJob } from './probe-endpoint';
import { closeFetches, probeTaskContext } from './test-support/probe-task-context';

type Measurement = typeof measurements.$inferSelect;

let t: TestDatabase;
const servers: Array<{ url: string; stop: () => Promise<void> }> = [];

/** Starts `tokenpace reference-server ARGS` as a real process; resolves with the URL it prints. */
async function spawnServer(args: string[]): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [path.resolve(__dirname, '../../bin/tokenpace.mjs'), 'reference-server', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`reference-server ${args.join(' ')} exited with ${code}`)));
  });
  const server = {
    url,
    stop: () => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM')))),
  };
  servers.push(server);
  return server;
}
const fetches: FetchLike[] = [];
const ids = new Map<string, number>();
const results = new Map<string, Measurement[]>();
let workloadId = 0;
let slot = 0;

async function probe(slug: string, fidelity: boolean): Promise<Measurement> {
  const endpointId = ids.get(slug)!;
  const slotStart = new Date(Date.UTC(2026, 11, 1, 12, 0) + slot++ * 60_000).toISOString();
  const jobKey = `probe:${endpointId}:${workloadId}:local:${slotStart}`;
  const r = await runProbeJob(probeTaskContext(t.db, {}, fetches), `boss-${jobKey}`, { endpointId, workloadId, region: 'local', slotStart, jobKey, fidelity });
  expect(r).toMatchObject({ status: 'recorded', outcome: 'success' });
  const [m] = await t.db.select().from(measurements).where(eq(measurements.jobKey, jobKey));
  return m!;
}

async function probeTimes(slug: string, times: number, fidelity = false): Promise<void> {
  const list: Measurement[] = [];
  for (let i = 0; i < times; i++) list.push(await probe(slug, fidelity));
  results.set(slug, list);
}

/**
 * Probes until `want` measurements are rankable (at most `max` probes): a busy machine may make the
 * probe decline to vouch for its own clock (`timing_uncertain`, decisions 181 and 183), which says
 * nothing about the stream; every other reason would.
 */
async function probeUntilRankable(slug: string, want = 3, max = 8): Promise<void> {
  const list: Measurement[] = [];
  while (list.filter((m) => m.rankable).length < want && list.length < max) list.push(await probe(slug, false));
  results.set(slug, list);
}

/** The reasons a measurement is not rankable, less the clock's own (timing_uncertain). */
const streamReasons = (m: Measurement) => m.notRankableReasons.filter((r) => r !== 'timing_uncertain');

const rules = (m: Measurement) => (m.evidence as { delivery?: { rules: string[] } } | null)?.delivery?.rules ?? [];

beforeAll(async () => {
  injectLateness('quiet');
  t = await createTestDatabase();
  await seedCatalog(t.db, {
    workloads: [{ slug: 'prose-1k', category: 'prose', inputTokensTarget: 1000, maxOutputTokens: 256, concurrency: 1, scheduled: true }],
    lookupEnv: () => null,
    referencePort: 1,
  });
  workloadId = (await t.db.select({ id: workloads.id }).from(workloads).where(eq(workloads.slug, 'prose-1k')))[0]!.id;
  const [cal] = await t.db.select({ providerId: endpoints.providerId, modelId: endpoints.modelId }).from(endpoints).where(eq(endpoints.isCalibration, true));
  const [gaming, ...references] = await Promise.all([
    spawnServer(['--gaming', '--port', '0']),
    spawnServer(['--port', '0', '--tps', '5000', '--ttft-ms', '50', '--tokens-per-chunk', '1']),
    spawnServer(['--port', '0', '--tps', '5000', '--ttft-ms', '50', '--tokens-per-chunk', '4']),
  ]);
  const add = async (slug: string, baseUrl: string, apiModelId: string) => {
    const [ep] = await t.db
      .insert(endpoints)
      .values({ slug, providerId: cal!.providerId, modelId: cal!.modelId, protocol: 'openai-chat', baseUrl, apiModelId, allowPrivate: true, status: 'active' })
      .returning({ id: endpoints.id });
    ids.set(slug, ep!.id);
  };
  for (const trick of GAMING_TRICKS) await add(`gaming-${trick}`, gaming.url, trick);
  await add('reference-5000-1', references[0]!.url, 'tokenpace-reference');
  await add('reference-5000-4', references[1]!.url, 'tokenpace-reference');
  // Answers: no timing at stake, so side by side.
  await Promise.all([
    probeTimes('gaming-junk-text', 3, true),
    probeTimes('gaming-junk-varied', 3, true),
    probeTimes('gaming-junk-wrong', 3, true),
    probeTimes('gaming-junk-loop', 2),
  ]);
  // Every stream whose timing is judged runs alone: the servers share this process's event loop,
  // and a stream delayed by another's work would show a real gap of its own.
  await probeTimes('gaming-usage-inflated-30', 2);
  await probeUntilRankable('gaming-usage-inflated-24');
  // Delivery tricks and the honest streams one at a time: each stream's own timers, nothing else running.
  for (const trick of ['whole-answer', 'hold-then-burst', 'bulk-63', 'burst-first-read', 'clock-padding'] as const) await probeTimes(`gaming-${trick}`, 2);
  // Just over a rule's edge, the margin is small enough that a loaded machine's late reads could
  // move it (a late read merges the second token with the third): these probes carry this
  // process's real timing evidence, so either the rule fires, or the probe declines to vouch for
  // its clock (timing_uncertain); either way not rankable, as in production.
  restoreLateness();
  for (const trick of ['hold-just-over', 'padding-just-over', 'stall-just-over'] as const) await probeTimes(`gaming-${trick}`, 2);
  // Just under the hold rule, the margin (15 %) is as small: a first read that a loaded machine
  // delivers late lengthens the TTFT and shortens the span by the same stall. These carry the real
  // timing evidence too, so a probe the rule refuses must be one whose clock was not vouched for.
  await probeUntilRankable('gaming-hold-just-under');
  injectLateness('quiet');
  for (const slug of ['gaming-padding-just-under', 'gaming-stall-just-under', 'gaming-honest', 'reference-5000-1', 'reference-5000-4'])
    await probeUntilRankable(slug);
}, 240_000);

afterAll(async () => {
  restoreLateness();
  await closeFetches(fetches);
  for (const s of servers) await s.stop();
  await t?.drop();
});

describe('the issue-20 table, over real HTTP against the gaming server', () => {
  it('fixed junk text failing every fidelity check: fidelity_failed and the same answer to different prompts', () => {
    const ms = results.get('gaming-junk-text')!;
    for (const m of ms) expect(m.notRankableReasons).toContain('fidelity_failed');
    expect(ms.slice(1).every((m) => m.notRankableReasons.includes('repeated_answer'))).toBe(true);
    // variant: varied plausible text that never answers the task
    for (const m of results.get('gaming-junk-varied')!) expect(streamReasons(m)).toContain('fidelity_failed');
    // variant: a reply in the checked format with a wrong result and access code
    for (const m of results.get('gaming-junk-wrong')!) {
      expect(streamReasons(m)).toContain('fidelity_failed');
      expect((m.fidelityDetail as { failures: string[] }).failures.length).toBeGreaterThan(0);
    }
    // variant: a generation loop, no fidelity check needed
    for (const m of results.get('gaming-junk-loop')!) expect(m.notRankableReasons).toContain('degenerate_output');
  });

  it('the whole answer in one write: buffered_stream (no pace to measure)', () => {
    for (const m of results.get('gaming-whole-answer')!) expect(m.notRankableReasons).toContain('buffered_stream');
  });

  it('held 2 s, then 250 one-token events 0.5 ms apart: hold_then_burst', () => {
    for (const m of results.get('gaming-hold-then-burst')!) {
      expect(m.rankable).toBe(false);
      expect(rules(m)).toContain('hold_then_burst'); // (a loaded server may also show a padded first gap)
      expect(m.ttftMs!).toBeGreaterThan(1990);
    }
  });

  it('63 tokens per event every 1 ms, after generating them: not rankable (hold_then_burst, or buffered when the reads merge)', () => {
    for (const m of results.get('gaming-bulk-63')!) {
      expect(m.rankable, JSON.stringify([m.notRankableReasons, m.evidence, m.ttftMs, m.e2eMs, m.contentChunks])).toBe(false);
      expect(
        rules(m).includes('hold_then_burst') || m.notRankableReasons.includes('buffered_stream'),
        JSON.stringify([m.notRankableReasons, m.evidence, m.ttftMs, m.e2eMs]),
      ).toBe(true); // see the reasons: JSON
    }
  });

  it('a hold released as one read of many events, then a 15-token tail: hold_then_burst (counted as the published speed counts)', () => {
    for (const m of results.get('gaming-burst-first-read')!) expect(rules(m)).toContain('hold_then_burst');
  });

  it('one word at once, then a 1.5 s pause: clock_padding, with the real start of output kept', () => {
    for (const m of results.get('gaming-clock-padding')!) {
      expect(streamReasons(m)).toEqual(['implausible_delivery']);
      expect(rules(m)).toContain('clock_padding');
      const secondMs = (m.evidence as { delivery: { secondDeliveryMs: number } }).delivery.secondDeliveryMs;
      expect(secondMs).toBeGreaterThan(1490);
    }
  });

  it('usage 30 % above the tokens sent: token_count_mismatch; 24 % above: rankable but credited only what was sent, and flagged', async () => {
    for (const m of results.get('gaming-usage-inflated-30')!) expect(streamReasons(m)).toContain('token_count_mismatch');
    const inflated = results.get('gaming-usage-inflated-24')!;
    for (const m of inflated) {
      expect(streamReasons(m)).toEqual([]);
      expect(m.outputTokensReported).toBe(Math.round(m.outputTokensO200k! * 1.24));
      // the reported basis would credit 24 % more speed; the o200k basis (the default) does not
      expect(m.outputTokensPerSecond! / m.outputTokensPerSecondO200k!).toBeCloseTo(1.24, 1);
    }
    const honesty = await getTokenHonesty(t.db, { endpointId: ids.get('gaming-usage-inflated-24')!, from: new Date(Date.now() - 3600_000), to: new Date() });
    expect(honesty.ratio!.ratio).toBeCloseTo(1.24, 2);
    expect(honesty.verdict).toBe('over_reported');
    const honest = await getTokenHonesty(t.db, { endpointId: ids.get('gaming-honest')!, from: new Date(Date.now() - 3600_000), to: new Date() });
    expect(honest.ratio!.ratio).toBe(1);
    expect(honest.verdict).toBe('within');
  });
});

describe('variants around each rule’s edge', () => {
  it(`a hold 15 % over the rule's allowance (${HOLD_RATIO} spans + prefill + 25 ms) is caught; 15 % under stays rankable, gaining at most that factor`, () => {
    for (const m of results.get('gaming-hold-just-over')!)
      expect(rules(m).includes('hold_then_burst') || m.notRankableReasons.includes('timing_uncertain'), JSON.stringify(m.notRankableReasons)).toBe(true);
    const underHold = results.get('gaming-hold-just-under')!;
    // at least one probe whose clock was vouched for, and each of those rankable
    expect(underHold.filter((m) => !m.notRankableReasons.includes('timing_uncertain')).length).toBeGreaterThan(0);
    for (const m of underHold) {
      if (m.notRankableReasons.includes('timing_uncertain')) continue; // a late read of this loaded machine, not the stream's
      expect(streamReasons(m)).toEqual([]);
      // what it gained: the published speed over the speed the whole request proves (tokens ÷ E2E)
      const proven = (m.outputTokensO200k! * 1000) / m.e2eMs!;
      expect(m.outputTokensPerSecondO200k! / proven).toBeLessThan(1 + HOLD_RATIO + 1.5); // + the prefill allowance's share
    }
  });

  it(`a first gap of 12 steps of the stream's own pace is clock_padding; 5 steps (under ${PADDING_RATIO}) stays rankable, shaving at most that off TTFT`, () => {
    for (const m of results.get('gaming-padding-just-over')!)
      expect(rules(m).includes('clock_padding') || m.notRankableReasons.includes('timing_uncertain'), JSON.stringify(m.notRankableReasons)).toBe(true);
    for (const m of results.get('gaming-padding-just-under')!) {
      expect(streamReasons(m)).toEqual([]);
      expect(m.ttftMs!).toBeGreaterThanOrEqual(49); // the first word's own time: nothing shaved beyond the 5 steps
    }
  });
});

describe('decision 312: one short stall after the first word', () => {
  it(`a 50 ms stall at a 5 ms pace (10×, refused by the ratio alone before) stays rankable; 150 ms (over the ${SHORT_STALL_MS} ms allowance) is clock_padding`, () => {
    for (const m of results.get('gaming-stall-just-under')!) {
      expect(streamReasons(m), JSON.stringify(m.evidence)).toEqual([]);
      expect(m.ttftMs!).toBeGreaterThanOrEqual(49); // the first word's own time: at most the stall shaved
    }
    for (const m of results.get('gaming-stall-just-over')!)
      expect(rules(m).includes('clock_padding') || m.notRankableReasons.includes('timing_uncertain'), JSON.stringify(m.notRankableReasons)).toBe(true);
  });
});

describe('the board', () => {
  it('ranks none of the tricks that break a rule, ranks the edge controls and the honest streams, and publishes the inflated endpoint at the speed it sent', async () => {
    const board = await getLeaderboardAnswer(
      t.db,
      leaderboardQuerySchema.parse({ model: 'tokenpace-reference', workload: 'prose-1k', window: '24h' }),
      new Date(Date.now() + 60_000),
    );
    expect(board.basis).toBe('o200k');
    const entry = (slug: string) => board.entries.find((e) => e.endpoint.slug === slug)!;
    // every trick is caught (unranked) but those that stay inside the bounds (and the honest server)
    const ranked: GamingTrick[] = ['hold-just-under', 'padding-just-under', 'stall-just-under', 'honest', 'usage-inflated-24'];
    const caught = GAMING_TRICKS.filter((trick) => !ranked.includes(trick));
    expect(caught).toHaveLength(13);
    for (const trick of caught) expect(entry(`gaming-${trick}`).rank, trick).toBeNull();
    expect(entry('gaming-junk-text').notRankedReason).toBe('fidelity_below_bound');
    expect(entry('gaming-junk-varied').notRankedReason).toBe('fidelity_below_bound');
    expect(entry('gaming-junk-wrong').notRankedReason).toBe('fidelity_below_bound');
    expect(entry('gaming-hold-then-burst').notRankedReason).toBe('too_few_samples');
    for (const slug of [...ranked.map((trick) => `gaming-${trick}`), 'reference-5000-1', 'reference-5000-4']) expect(entry(slug).rank, slug).not.toBeNull();
    // 5,000 TPS/user with 1 and 4 tokens per chunk: rankable, near the true speed. One refusal is
    // the machine's, not the stream's (decision 312): on a loaded machine the server process can
    // start a stream late, and a wait before the first token of more than HOLD_RATIO × a 51 ms span
    // is refused by the hold rule whoever caused it. So a probe is either clean, or refused by that
    // rule alone with its TTFT far above the configured 50 ms; any other reason fails the test.
    for (const slug of ['reference-5000-1', 'reference-5000-4']) {
      for (const m of results.get(slug)!) {
        const heldByMachine = streamReasons(m).join() === 'implausible_delivery' && rules(m).join() === 'hold_then_burst' && m.ttftMs! > 3 * 50;
        if (!heldByMachine) expect(streamReasons(m), `${slug} ${JSON.stringify(m.evidence)}`).toEqual([]);
      }
      expect(entry(slug).samples).toBeGreaterThanOrEqual(3);
      expect(entry(slug).outputTokensPerSecond!.p50).toBeGreaterThan(2500);
    }
    // the inflated endpoint's published median is its o200k speed, the speed of what it sent
    // (a job may write a timing re-probe too, so the rows are read back: every rankable one counts)
    const rows = await t.db
      .select()
      .from(measurements)
      .where(eq(measurements.endpointId, ids.get('gaming-usage-inflated-24')!));
    const o200k = rows
      .filter((m) => m.rankable)
      .map((m) => m.outputTokensPerSecondO200k!)
      .sort((a, b) => a - b);
    const h = (o200k.length - 1) * 0.5;
    const median = o200k[Math.floor(h)]! + (h - Math.floor(h)) * (o200k[Math.ceil(h)]! - o200k[Math.floor(h)]!);
    expect(entry('gaming-usage-inflated-24').samples).toBe(o200k.length);
    expect(Math.abs(entry('gaming-usage-inflated-24').outputTokensPerSecond!.p50 / median - 1)).toBeLessThanOrEqual(0.001);
    expect(rows.every((m) => m.outputTokensReported === Math.round(m.outputTokensO200k! * 1.24))).toBe(true);
  });
});
