/**
 * Test-only OpenAI-compatible streaming server whose reply is a function of the prompt it
 * received: `answer(prompt)` returns the text to stream (in one-word chunks, 2 ms apart, then
 * usage and [DONE]). Lets tests play a correct model, a wrong one, or one that truncates context.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { streamChatWords } from '../../probe/test-support/chat-stream';
import { promptFromChatMessages } from '../answer-task';

/** A running answering server. */
export interface AnsweringServer {
  url: string;
  /** prompts received, in order */
  prompts: string[];
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 (ephemeral port). */
export async function startAnsweringServer(answer: (prompt: string) => string): Promise<AnsweringServer> {
  const prompts: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const prompt = promptFromChatMessages((JSON.parse(body || '{}') as { messages?: unknown }).messages);
      prompts.push(prompt);
      const words = answer(prompt).split(/(?<=\s)/);
      streamChatWords(res, { word: (i) => words[i] ?? null, intervalMs: 2 });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    prompts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
