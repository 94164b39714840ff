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
