/**
 * Incremental framing of a streamed JSON array (Gemini `streamGenerateContent` without
 * `alt=sse`): `[{...}\r\n,\r\n{...}]` arrives in arbitrary pieces. We scan characters (tracking
 * strings and escapes) and hand each top-level element to the caller as soon as its closing brace
 * arrives. A bare top-level object (an error body) is handed over as one element.
 */
import { createJsonStringTracker } from './json-string-tracker';

/** Callbacks of the JSON array framer. */
export interface JsonArrayHandlers {
  /** One complete top-level element, as text; `atMs` = arrival of the read holding its last byte. */
  onElement(json: string, atMs: number): void;
  /** The array's closing bracket arrived. */
  onArrayEnd(atMs: number): void;
  /** Bytes that cannot be a JSON array of objects, or a body cut inside an element. */
  onError(message: string, atMs: number): void;
}

/** Incremental JSON-array framer. */
export interface JsonArrayFramer {
  push(bytes: Uint8Array, atMs: number): void;
  end(atMs: number): void;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r', '\uFEFF']);

/** Creates a framer; after an error it ignores further input. */
export function createJsonArrayFramer(handlers: JsonArrayHandlers): JsonArrayFramer {
  const decoder = new TextDecoder('utf-8');
  // depth counts open brackets/braces, the outer array included; elementBase is the depth at which
  // an element closes (1 inside the array, 0 for a bare top-level object).
  let depth = 0;
  let inArray = false;
  let arrayClosed = false;
  let elementBase = -1;
  const strings = createJsonStringTracker();
  let pieces: string[] = [];
  let failed = false;
  let lastByteMs = 0;

  const fail = (message: string, atMs: number) => {
    failed = true;
    handlers.onError(message, atMs);
  };

  const scan = (text: string, atMs: number) => {
    let start = elementBase >= 0 ? 0 : -1;
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (elementBase >= 0) {
        if (strings.insideString(c)) continue;
        if (c === '{' || c === '[') depth++;
        else if (c === '}' || c === ']') {
          depth--;
          if (depth === elementBase) {
            pieces.push(text.slice(start, i + 1));
            const json = pieces.join('');
            pieces = [];
            elementBase = -1;
            start = -1;
            handlers.onElement(json, atMs);
            if (failed) return;
          }
        }
        continue;
      }
      if (WHITESPACE.has(c)) continue;
      if (inArray) {
        if (c === ',') continue;
        if (c === '{') {
          elementBase = depth;
          depth++;
          start = i;
          continue;
        }
        if (c === ']') {
          inArray = false;
          arrayClosed = true;
          depth--;
          handlers.onArrayEnd(atMs);
          continue;
        }
        return fail(`unexpected ${JSON.stringify(c)} between JSON array elements`, atMs);
      }
      if (!arrayClosed && depth === 0 && c === '[') {
        inArray = true;
        depth = 1;
        continue;
      }
      if (!arrayClosed && depth === 0 && c === '{') {
        elementBase = 0;
        depth = 1;
        start = i;
        continue;
      }
      return fail(`unexpected ${JSON.stringify(c)} outside the JSON array`, atMs);
    }
    if (elementBase >= 0 && start >= 0) pieces.push(text.slice(start));
  };

  return {
    push(bytes, atMs) {
      if (failed || bytes.length === 0) return;
      lastByteMs = atMs;
      const text = decoder.decode(bytes, { stream: true });
      if (text !== '') scan(text, atMs);
    },
    end() {
      if (failed) return;
      const tail = decoder.decode();
      if (tail !== '') scan(tail, lastByteMs);
      if (failed) return;
      if (elementBase >= 0) fail('body ended inside a JSON array element', lastByteMs);
    },
  };
}
