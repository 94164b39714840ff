/**
 * A perfect answerer for fidelity prompts, for the calibration reference server (and test
 * servers): it reads the prompt TEXT it was sent, like a model would, and returns the reply a
 * correct model gives (./tasks.ts formats). It does not regenerate the task from a seed: if the
 * prompt reached it truncated, the access-code parts it cannot see come out as `????`, so a
 * truncating server fails the nonce check exactly as a truncating provider would.
 */
import { decodeO200k, encodeO200k } from '../tokens/o200k';

function findPart(prompt: string, n: 1 | 2 | 3): string {
  const m = new RegExp(`part ${n} of the access code is ([A-Z0-9]{4})`).exec(prompt);
  return m ? m[1]! : '????';
}

/**
 * The correct reply to the fidelity prompt `prompt`, or null when `prompt` carries no fidelity
 * check (an ordinary workload prompt). The reply ends with a newline; callers may append filler.
 * Never throws.
 */
export function answerFidelityPrompt(prompt: string): string | null {
  const checkAt = prompt.lastIndexOf('\nCheck: ');
  if (checkAt < 0) return null;
  const check = prompt.slice(checkAt + 1);
  const code = `${findPart(prompt, 1)}-${findPart(prompt, 2)}-${findPart(prompt, 3)}`;

  const arithmetic = /^Check: compute (\d+) \* (\d+) - (\d+)\./.exec(check);
  if (arithmetic) {
    const [a, b, c] = arithmetic.slice(1, 4).map(Number) as [number, number, number];
    return `ANSWER: ${a * b - c}\nCODE: ${code}\n`;
  }

  const program = /values = \[([\d, ]+)\]\ntotal = (\d+)\n[\s\S]*?total \+= v \* (\d+)/.exec(check);
  if (check.startsWith('Check: what does this Python program print?') && program) {
    const values = program[1]!.split(',').map((s) => Number(s.trim()));
    let total = Number(program[2]);
    const factor = Number(program[3]);
    for (const v of values) total = v % 2 === 0 ? total + v * factor : total - v;
    return `ANSWER: ${total}\nCODE: ${code}\n`;
  }

  if (check.startsWith('Check: reply with only one JSON object')) {
    const checkId = /"checkId": the string "([^"]+)"/.exec(check)?.[1] ?? '';
    const sum = (/the integer sum of ([\d, ]+);/.exec(check)?.[1] ?? '')
      .split(',')
      .filter((s) => s.trim() !== '')
      .reduce((s, x) => s + Number(x.trim()), 0);
    const words = [...(/"sortedWords": the words (.+?) sorted alphabetically/.exec(check)?.[1] ?? '').matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
    return `${JSON.stringify({ checkId, result: sum, code, sortedWords: [...words].sort() })}\n`;
  }

  if (check.startsWith('Check: the notes above contain an access code')) return `CODE: ${code}\n`;
  return null;
}

/**
 * The text of the last user message of an OpenAI chat `messages` array (string content, or the
 * concatenated `text` parts of array content); '' when there is none. Never throws.
 */
export function promptFromChatMessages(messages: unknown): string {
  if (!Array.isArray(messages)) return '';
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as { role?: unknown; content?: unknown } | null;
    if (!m || m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) return m.content.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('');
  }
  return '';
}

/**
 * The correct reply to a chat request's fidelity prompt as o200k tokens, one string per token
 * (the reference server streams one string per token so its token rate stays exact); null for an
 * ordinary prompt. The reply is ASCII, so every single token decodes to whole characters.
 */
export function answerFidelityTokens(messages: unknown): string[] | null {
  const reply = answerFidelityPrompt(promptFromChatMessages(messages));
  if (reply === null) return null;
  return encodeO200k(reply).map((t) => decodeO200k([t]));
}
