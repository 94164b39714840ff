/**
 * Compact binary encoding of a probe timeline (stored with every measurement as evidence).
 *
 * Layout (all integers unsigned LEB128 varints):
 *   byte  version (1)
 *   varint entry count
 *   per entry:
 *     varint  Δt in 0.1 ms units since the previous entry (the first since request start);
 *             times are quantised to 0.1 ms BEFORE differencing, so rounding never drifts
 *     varint  (tokens << 1) | channelChanged
 *     [byte]  channel (0 answer, 1 reasoning, 2 tool), only when channelChanged; the channel
 *             before the first entry is "answer"
 * A typical entry (gap < 12.8 ms, < 64 tokens, same channel) takes 2 bytes: a 1,000-event answer
 * fits in about 2 KB.
 */
import type { TimelineEntry, TokenChannel } from './types';

const VERSION = 1;
const CHANNELS: TokenChannel[] = ['answer', 'reasoning', 'tool'];
/** Time resolution of the encoding, ms. */
export const TIMELINE_RESOLUTION_MS = 0.1;

/**
 * Encodes entries (atMs non-decreasing, ≥ 0; tokens non-negative integers). Times are rounded to
 * 0.1 ms. Throws RangeError for decreasing or negative times, negative/non-integer token counts
 * or unknown channels.
 */
export function encodeTimeline(entries: TimelineEntry[]): Buffer {
  const bytes: number[] = [VERSION];
  writeVarint(bytes, entries.length);
  let previous = 0;
  let channel = 0;
  for (const [i, entry] of entries.entries()) {
    const q = Math.round(entry.atMs / TIMELINE_RESOLUTION_MS);
    if (!Number.isFinite(q) || q < previous) throw new RangeError(`timeline entry ${i}: atMs ${entry.atMs} is negative or earlier than the previous entry`);
    if (!Number.isInteger(entry.tokens) || entry.tokens < 0) throw new RangeError(`timeline entry ${i}: tokens must be a non-negative integer`);
    const c = CHANNELS.indexOf(entry.channel);
    if (c < 0) throw new RangeError(`timeline entry ${i}: unknown channel ${String(entry.channel)}`);
    writeVarint(bytes, q - previous);
    writeVarint(bytes, entry.tokens * 2 + (c !== channel ? 1 : 0));
    if (c !== channel) bytes.push(c);
    previous = q;
    channel = c;
  }
  return Buffer.from(bytes);
}

/**
 * Decodes a buffer made by {@link encodeTimeline}. atMs values come back rounded to 0.1 ms.
 * Throws RangeError for an unknown version or a truncated/corrupt buffer.
 */
export function decodeTimeline(buffer: Uint8Array): TimelineEntry[] {
  const reader = { buffer, offset: 0 };
  if (buffer.length === 0 || buffer[0] !== VERSION) throw new RangeError(`unknown timeline encoding version ${buffer[0]}`);
  reader.offset = 1;
  const count = readVarint(reader);
  const entries: TimelineEntry[] = [];
  let q = 0;
  let channel = 0;
  for (let i = 0; i < count; i++) {
    q += readVarint(reader);
    const head = readVarint(reader);
    if (head % 2 === 1) {
      if (reader.offset >= buffer.length) throw new RangeError('truncated timeline');
      channel = buffer[reader.offset++]!;
      if (channel >= CHANNELS.length) throw new RangeError(`corrupt timeline channel ${channel}`);
    }
    entries.push({ atMs: Math.round(q) / 10, tokens: Math.floor(head / 2), channel: CHANNELS[channel]! });
  }
  if (reader.offset !== buffer.length) throw new RangeError('trailing bytes after timeline');
  return entries;
}

function writeVarint(out: number[], value: number): void {
  // Arithmetic, not bit operators: values may exceed 2^31 (long hangs at 0.1 ms resolution).
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) + 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

function readVarint(reader: { buffer: Uint8Array; offset: number }): number {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 8; i++) {
    if (reader.offset >= reader.buffer.length) throw new RangeError('truncated timeline');
    const byte = reader.buffer[reader.offset++]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return value;
    scale *= 0x80;
  }
  throw new RangeError('corrupt timeline varint');
}
