/** A piece of a response body as a test feeds it to the parser: its bytes and the instant (ms) its last byte was written. */
export interface TimedPiece {
  bytes: Uint8Array;
  atMs: number;
}

/**
 * Cuts `body` at the byte offsets `points` (repeats and offsets outside (0, length) dropped, in
 * ascending order) into pieces, each stamped with the write time of its last byte: `timeOf[i]` is
 * the instant (ms) byte i was written.
 */
export function cutBody(body: Buffer, timeOf: number[], points: number[]): TimedPiece[] {
  const sorted = [...new Set(points)].filter((p) => p > 0 && p < body.length).sort((a, b) => a - b);
  const pieces: TimedPiece[] = [];
  let start = 0;
  for (const end of [...sorted, body.length]) {
    pieces.push({ bytes: body.subarray(start, end), atMs: timeOf[end - 1]! });
    start = end;
  }
  return pieces;
}

/**
 * The pieces as a response body the parser reads: `chunks` yields each piece's bytes, and `now()`
 * (ms, the parser's clock) is the write time of the piece last yielded (0 before the first); after
 * the last piece the body ends, or throws `endError` (a reset or a deadline's abort) when given.
 */
export function timedBody(pieces: TimedPiece[], endError?: Error): { chunks: AsyncIterable<Uint8Array>; now: () => number } {
  let now = 0;
  async function* chunks() {
    for (const p of pieces) {
      now = p.atMs;
      yield p.bytes;
    }
    if (endError) throw endError;
  }
  return { chunks: chunks(), now: () => now };
}
