/**
 * Whether a left-to-right scan of JSON text is inside a string literal, so that a scanner counts
 * brackets and braces only outside strings. `insideString(ch)` takes the next character and
 * answers true when it belongs to a string (its quotes and escapes included), false when it is
 * structure for the caller to read. The state carries across calls, so text may come in pieces
 * (a stream's chunks). Used by the JSON array framer and the fidelity check's object extraction.
 */
export function createJsonStringTracker(): { insideString: (ch: string) => boolean } {
  let inString = false;
  let escaped = false;
  return {
    insideString(ch) {
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === '\\') escaped = true;
        else if (ch === '"') inString = false;
        return true;
      }
      if (ch === '"') inString = true;
      return inString;
    },
  };
}
