/**
 * Shared vocabulary mapping for adapters: in-stream error kinds (finish reasons: ../finish-reasons.ts).
 */
import type { InStreamError } from './adapter';

const RATE_LIMIT_PATTERN = /rate[\s_-]?limit|throttl|too[\s_-]?many[\s_-]?requests|resource[\s_-]?exhausted|\b429\b|quota/i;

/**
 * Classifies an error reported inside a 2xx stream: `rate_limited` when its text names throttling
 * or rate limiting (HTTP 429 code, Bedrock throttlingException, Anthropic rate_limit_error, Gemini
 * RESOURCE_EXHAUSTED), else `stream_error`. `message` is truncated to 300 characters.
 */
export function classifyInStreamError(description: string, message?: string): InStreamError {
  const kind = RATE_LIMIT_PATTERN.test(description) ? 'rate_limited' : 'stream_error';
  const text = (message ?? description).slice(0, 300);
  return { kind, message: text };
}

/** Parses JSON, returning undefined instead of throwing. */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** True for a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value if it is a non-empty string, else undefined. */
export function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The value if it is a finite non-negative number, else undefined. */
export function countValue(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** True when `text` looks like an HTML document (an error page from a proxy or gateway). */
export function looksLikeHtml(text: string): boolean {
  return /^\s*(<!doctype html|<html|<head|<body|<title|<\?xml)/i.test(text) || /<\/(html|body|title|h1)>/i.test(text);
}

/**
 * One readable line from an error body, whatever its form: an HTML page gives its `<title>` and
 * first `<h1>` (tags stripped); a JSON body gives `error.message` (or `message`, `detail`) with
 * its type/code/status; other text is collapsed to one line. At most 300 characters. The caller
 * redacts secrets.
 */
export function summarizeErrorText(text: string): string {
  const trimmed = text.trim();
  if (looksLikeHtml(trimmed)) {
    const strip = (s: string) =>
      s
        .replace(/<[^>]*>/g, ' ')
        .replace(/&nbsp;/g, ' ')
        .replace(/&amp;/g, '&')
        .replace(/\s+/g, ' ')
        .trim();
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(trimmed)?.[1];
    const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(trimmed)?.[1];
    const parts = [title, h1].filter((p): p is string => p !== undefined).map(strip);
    const unique = parts.filter((p, i) => p !== '' && parts.indexOf(p) === i);
    const body = unique.length > 0 ? unique.join(': ') : strip(trimmed);
    return `HTML page: ${body}`.slice(0, 300);
  }
  // An SSE-framed error body (`data: {...}`) reads like the JSON inside it.
  const unframed = trimmed.replace(/^(?:event:[^\n]*\n)?data:\s?/, '');
  const parsed = tryParseJson(unframed);
  if (isRecord(parsed)) {
    const e = isRecord(parsed.error) ? parsed.error : parsed;
    const message = [e.message, e.detail, typeof parsed.error === 'string' ? parsed.error : undefined].find((m) => typeof m === 'string' && m !== '');
    const labels = [e.type, e.code, e.status].filter((x) => (typeof x === 'string' && x !== '') || typeof x === 'number').join(' ');
    if (typeof message === 'string') return `${labels ? `${labels}: ` : ''}${message}`.slice(0, 300);
  }
  return trimmed.replace(/\s+/g, ' ').slice(0, 300);
}
