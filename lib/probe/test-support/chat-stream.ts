/**
 * A minimal OpenAI Chat Completions stream for test servers: a role chunk, one content chunk per
 * word, the stop chunk, optionally a usage chunk, then `[DONE]`.
 */
import type { ServerResponse } from 'node:http';

/** One `chat.completion.chunk` as an SSE event. */
export function chatChunk(delta: object, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

/**
 * Answers `res` with a Chat Completions stream. `word(i)` gives the i-th content piece, null to
 * finish; pieces go out every `intervalMs` (0: all at once). With `usage`, a usage chunk reporting
 * that many completion tokens precedes `[DONE]`. The timer stops, and `onClose` runs, when the
 * response closes (client gone or stream ended).
 */
export function streamChatWords(
  res: ServerResponse,
  opts: { word: (i: number) => string | null; intervalMs: number; usage?: { completionTokens: number }; onClose?: () => void },
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(chatChunk({ role: 'assistant', content: '' }));
  const finish = () => {
    res.write(chatChunk({}, 'stop'));
    if (opts.usage) {
      const usage = { prompt_tokens: 10, completion_tokens: opts.usage.completionTokens, total_tokens: 10 + opts.usage.completionTokens };
      res.write(`data: ${JSON.stringify({ id: 'x', choices: [], usage })}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  };
  res.on('close', () => opts.onClose?.());
  if (opts.intervalMs === 0) {
    for (let i = 0, w = opts.word(0); w !== null; w = opts.word(++i)) res.write(chatChunk({ content: w }));
    finish();
    return;
  }
  let i = 0;
  const timer = setInterval(() => {
    const w = opts.word(i);
    if (w !== null) res.write(chatChunk({ content: w }));
    else {
      clearInterval(timer);
      finish();
    }
    i += 1;
  }, opts.intervalMs);
  res.on('close', () => clearInterval(timer));
}
