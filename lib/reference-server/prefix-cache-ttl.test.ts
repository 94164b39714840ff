/**
 * The reference server's prefix-cache lifetime (decision 268) at its edges, over real HTTP: a
 * prompt sent again exactly `ttlMs` after its last use is still cached, 1 ms later it is not, and
 * a hit refreshes the lifetime (the clock is the test's). A whole conversation is the cached
 * prompt: the second turn finds the first turn's blocks (decision 267).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { conversationText, startReferenceServer, type ReferenceServer } from './reference-server';

let server: ReferenceServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const PROMPT = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');

/** The cached tokens the server reports for one Chat request with `messages`. */
async function cached(url: string, messages: unknown[]): Promise<number> {
  const res = await fetch(`${url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'tokenpace-reference', stream: true, max_tokens: 2, messages }),
  });
  const body = await res.text();
  const usage = body
    .split('\n')
    .filter((l) => l.startsWith('data: {') && l.includes('"usage"'))
    .map((l) => JSON.parse(l.slice(6)) as { usage: { prompt_tokens_details: { cached_tokens: number } } })
    .at(-1);
  return usage!.usage.prompt_tokens_details.cached_tokens;
}

describe('reference server prefix cache: lifetime', () => {
  it('just under and at the TTL a hit, just over it a miss; a hit refreshes the lifetime', async () => {
    let now = 0;
    const ttlMs = 300_000;
    server = await startReferenceServer({
      port: 0,
      tps: 5000,
      ttftMs: 0,
      outputTokens: 2,
      prefixCache: { hitTtftMs: 0, blockTokens: 64, ttlMs, now: () => now },
    });
    const user = (text: string) => [{ role: 'user', content: text }];
    expect(await cached(server.url, user(PROMPT))).toBe(0);
    now += ttlMs - 1;
    expect(await cached(server.url, user(PROMPT))).toBeGreaterThan(0);
    // the hit refreshed it: exactly ttlMs later still a hit
    now += ttlMs;
    expect(await cached(server.url, user(PROMPT))).toBeGreaterThan(0);
    // 1 ms over: forgotten (and stored again by this miss)
    now += ttlMs + 1;
    expect(await cached(server.url, user(PROMPT))).toBe(0);
    await expect(startReferenceServer({ port: 0, tps: 1, ttftMs: 0, prefixCache: { hitTtftMs: 0, ttlMs: 0 } })).rejects.toThrow(RangeError);
  });

  it('a conversation is cached whole: turn 2 (call and tool result appended) finds turn 1', async () => {
    server = await startReferenceServer({ port: 0, tps: 5000, ttftMs: 0, outputTokens: 2, prefixCache: { hitTtftMs: 0, blockTokens: 64 } });
    const turn1 = [{ role: 'user', content: PROMPT }];
    const turn2 = [
      ...turn1,
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'save_section', arguments: '{"title":"A","story":"B"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'notes for the next section' },
    ];
    expect(conversationText(turn1)).toBe(PROMPT);
    expect(conversationText(turn2)).toBe(`${PROMPT}\n\n{"title":"A","story":"B"}\n\nnotes for the next section`);
    expect(await cached(server.url, turn1)).toBe(0);
    const hit = await cached(server.url, turn2);
    expect(hit).toBeGreaterThan(0);
    expect(hit % 64).toBe(0);
  });
});
