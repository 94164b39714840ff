/**
 * Pre-merged window partials (decision 210): the window parts of lib/stats/window-stats, merged
 * ahead of time per aligned span of time and kept in a compact binary form, so that any window at
 * any instant is a bounded number of merges (a few dozen) plus the raw rows of its last ≤ 10
 * minutes, whatever the number of rows it holds.
 *
 * - Spans ({@link PARTIAL_SPANS_MINUTES}): 10 min, 1 h, 6 h, 1 day, 7 days, 28 days, each aligned
 *   to the Unix epoch (UTC), each a whole number of the span below it, so a bucket of one span is
 *   exactly the union of its children. {@link planPartials} cuts a minute-aligned range into the
 *   fewest such buckets: at most 2 × (ratio − 1) buckets per span, so ≤ 5+5+3+3+... (about 40 in
 *   the worst case for 366 days, about 25 for 72 h).
 * - One partial holds, for one workload and one model, one series per endpoint — either all worker
 *   regions merged (region key `*`) or one region — each a {@link WindowPart} plus the regions that
 *   contributed probes. Merging is adding counts, so the figures of a window computed from
 *   partials are bit-identical to those from rollups or raw rows (lib/stats/sketch module doc).
 * - Binary form (format 1), all integers unsigned LEB128 varints (values up to 2^53) unless noted:
 *   `0x50 'P'`, format, sketch version; string table (count, then length + UTF-8 each: regions,
 *   error kinds, reasons); series count; per series: endpoint id, region count + string indexes,
 *   count, successes, excluded total, fidelity checks, fidelity passed, lastMeasuredAtMs + 1 (0 =
 *   none), error kinds (count, then string index + count each), excluded reasons (same), metric
 *   mask (bit i = WINDOW_METRICS[i] present), per present metric: zeros, key count, first key
 *   (zig-zag), key deltas − 1, counts. A 1-hour series of one endpoint is ~0.3 KB, a day ~5 KB.
 *
 * Framework-free and pure.
 */
import { SKETCH_VERSION, type PackedSketch } from './sketch';
import { WINDOW_METRICS, type WindowMetric, type WindowPart } from './window-stats';

/** Span lengths of the stored partials, minutes, ascending; each divides the next. */
export const PARTIAL_SPANS_MINUTES = [10, 60, 360, 1440, 10080, 40320] as const;
/** One of {@link PARTIAL_SPANS_MINUTES}. */
export type PartialSpan = (typeof PARTIAL_SPANS_MINUTES)[number];
/** The finest span (minutes): a window's last < 10 minutes are read from raw measurements. */
export const FINEST_PARTIAL_MINUTES = PARTIAL_SPANS_MINUTES[0];
/** Region key of a partial whose series merge every worker region. */
export const ALL_REGIONS = '*';

const MINUTE = 60_000;

/** One bucket of one span: [startMs, startMs + span). */
export interface PartialBucket {
  spanMinutes: PartialSpan;
  startMs: number;
}

/**
 * The fewest aligned buckets covering [fromMs, toMs) exactly (both multiples of 10 minutes), in
 * time order: greedy, the largest span that starts at the cursor and fits. Pure.
 * @throws RangeError if the ends are not aligned to {@link FINEST_PARTIAL_MINUTES} or reversed
 */
export function planPartials(fromMs: number, toMs: number): PartialBucket[] {
  const unit = FINEST_PARTIAL_MINUTES * MINUTE;
  if (fromMs % unit !== 0 || toMs % unit !== 0 || toMs < fromMs)
    throw new RangeError(`partials need a ${FINEST_PARTIAL_MINUTES}-minute aligned range, got [${fromMs}, ${toMs})`);
  const out: PartialBucket[] = [];
  let t = fromMs;
  while (t < toMs) {
    let span: PartialSpan = FINEST_PARTIAL_MINUTES;
    for (let i = PARTIAL_SPANS_MINUTES.length - 1; i >= 0; i--) {
      const s = PARTIAL_SPANS_MINUTES[i]!;
      const ms = s * MINUTE;
      if (t % ms === 0 && t + ms <= toMs) {
        span = s;
        break;
      }
    }
    out.push({ spanMinutes: span, startMs: t });
    t += span * MINUTE;
  }
  return out;
}

/** Start of the bucket of `span` holding instant `t` (ms). */
export function floorToSpan(t: number, span: PartialSpan): number {
  const ms = span * MINUTE;
  return Math.floor(t / ms) * ms;
}

/** The span one level above `span` (null for the largest). */
export function parentSpan(span: PartialSpan): PartialSpan | null {
  const i = PARTIAL_SPANS_MINUTES.indexOf(span);
  return PARTIAL_SPANS_MINUTES[i + 1] ?? null;
}

/** One endpoint's series in a partial: its part and the worker regions whose probes it holds (sorted). */
export interface PartialSeries {
  endpointId: number;
  regions: string[];
  part: WindowPart;
}

// ---------------------------------------------------------------------------------------------
// Binary form.

const MAGIC = 0x50;
const FORMAT = 1;
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

class Writer {
  buf = new Uint8Array(1024);
  len = 0;
  private ensure(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
  u(v: number): void {
    if (!(Number.isSafeInteger(v) && v >= 0)) throw new RangeError(`varint needs a safe non-negative integer, got ${String(v)}`);
    this.ensure(8);
    while (v >= 0x80) {
      this.buf[this.len++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.len++] = v;
  }
  z(v: number): void {
    this.u(v < 0 ? -2 * v - 1 : 2 * v);
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }
}

/**
 * The binary form of a partial's series (see module doc). Series are written in the given order;
 * counts must be non-negative safe integers.
 * @throws RangeError for a negative or non-integer count
 */
export function encodePartial(series: readonly PartialSeries[]): Uint8Array {
  const strings = new Map<string, number>();
  const idx = (s: string) => {
    let i = strings.get(s);
    if (i === undefined) {
      i = strings.size;
      strings.set(s, i);
    }
    return i;
  };
  for (const s of series) {
    for (const r of s.regions) idx(r);
    for (const [k] of s.part.errorKinds) idx(k);
    for (const [k] of s.part.notRankableByReason) idx(k);
  }
  const w = new Writer();
  w.bytes(Uint8Array.of(MAGIC, FORMAT));
  w.u(SKETCH_VERSION);
  w.u(strings.size);
  for (const s of strings.keys()) {
    const b = utf8.encode(s);
    w.u(b.length);
    w.bytes(b);
  }
  w.u(series.length);
  for (const s of series) {
    const p = s.part;
    w.u(s.endpointId);
    w.u(s.regions.length);
    for (const r of s.regions) w.u(idx(r));
    w.u(p.count);
    w.u(p.successes);
    w.u(p.notRankableTotal);
    w.u(p.fidelityChecks ?? 0);
    w.u(p.fidelityPassed ?? 0);
    w.u(p.lastMeasuredAtMs === null ? 0 : p.lastMeasuredAtMs + 1);
    w.u(p.errorKinds.length);
    for (const [k, c] of p.errorKinds) {
      w.u(idx(k));
      w.u(c);
    }
    w.u(p.notRankableByReason.length);
    for (const [k, c] of p.notRankableByReason) {
      w.u(idx(k));
      w.u(c);
    }
    let mask = 0;
    WINDOW_METRICS.forEach((m, i) => {
      if (p.sketches[m]) mask |= 1 << i;
    });
    w.u(mask);
    for (const m of WINDOW_METRICS) {
      const sk = p.sketches[m];
      if (!sk) continue;
      w.u(sk.zeros);
      w.u(sk.keys.length);
      for (let j = 0; j < sk.keys.length; j++) {
        if (j === 0) w.z(sk.keys[0]!);
        else w.u(sk.keys[j]! - sk.keys[j - 1]! - 1);
      }
      for (let j = 0; j < sk.counts.length; j++) w.u(sk.counts[j]!);
    }
  }
  return w.buf.slice(0, w.len);
}

/**
 * Storage reused by many {@link decodePartial} calls for the decoded sketches' bucket keys and
 * counts: views into two growing typed arrays, instead of two new ArrayBuffers per sketch. A cold
 * window decodes ~100 sketches (~2 MB of buffers at 14 endpoints); allocated anew each time, that
 * external memory alone set off full collections every few dozen answers, the slowest answers
 * (issue 24 item 1). Views stay valid until {@link DecodeArena.reset}: use one arena for decoding
 * that is consumed before the next await (a shared arena across an await would be overwritten).
 */
export class DecodeArena {
  private keys = new Int32Array(1 << 16);
  private counts = new Float64Array(1 << 16);
  private used = 0;

  /** Starts over (every earlier view may be overwritten from now on). */
  reset(): void {
    this.used = 0;
  }

  /** Room for `k` keys and counts. */
  take(k: number): { keys: Int32Array; counts: Float64Array } {
    if (this.used + k > this.keys.length) {
      // Earlier views keep their old buffers; new ones come from bigger arrays.
      let size = this.keys.length * 2;
      while (size < k) size *= 2;
      this.keys = new Int32Array(size);
      this.counts = new Float64Array(size);
      this.used = 0;
    }
    const at = this.used;
    this.used += k;
    return { keys: this.keys.subarray(at, at + k), counts: this.counts.subarray(at, at + k) };
  }
}

/**
 * Decodes a partial written by {@link encodePartial} (the inverse: same series, same order).
 * With `arena`, the sketches' arrays are views into it (valid until its reset).
 * @throws RangeError for a malformed or foreign buffer, or a sketch version other than the current one
 */
export function decodePartial(bytes: Uint8Array, arena?: DecodeArena): PartialSeries[] {
  let pos = 0;
  const n = bytes.length;
  const u = (): number => {
    let v = 0;
    let mul = 1;
    for (;;) {
      if (pos >= n) throw new RangeError('window partial truncated');
      const b = bytes[pos++]!;
      v += (b & 0x7f) * mul;
      if (b < 0x80) return v;
      mul *= 0x80;
    }
  };
  if (n < 2 || bytes[0] !== MAGIC || bytes[1] !== FORMAT) throw new RangeError('not a window partial (format 1)');
  pos = 2;
  const version = u();
  if (version !== SKETCH_VERSION) throw new RangeError(`window partial of sketch version ${version}, expected ${SKETCH_VERSION}`);
  const strings: string[] = [];
  for (let i = u(); i > 0; i--) {
    const len = u();
    if (pos + len > n) throw new RangeError('window partial truncated');
    strings.push(fromUtf8.decode(bytes.subarray(pos, pos + len)));
    pos += len;
  }
  const str = (i: number) => {
    const s = strings[i];
    if (s === undefined) throw new RangeError('window partial: bad string index');
    return s;
  };
  const out: PartialSeries[] = [];
  for (let si = u(); si > 0; si--) {
    const endpointId = u();
    const regions: string[] = [];
    for (let i = u(); i > 0; i--) regions.push(str(u()));
    const count = u();
    const successes = u();
    const notRankableTotal = u();
    const fidelityChecks = u();
    const fidelityPassed = u();
    const last = u();
    const errorKinds: Array<[string, number]> = [];
    for (let i = u(); i > 0; i--) errorKinds.push([str(u()), u()]);
    const notRankableByReason: Array<[string, number]> = [];
    for (let i = u(); i > 0; i--) notRankableByReason.push([str(u()), u()]);
    const mask = u();
    const sketches: Partial<Record<WindowMetric, PackedSketch>> = {};
    for (let mi = 0; mi < WINDOW_METRICS.length; mi++) {
      if (!(mask & (1 << mi))) continue;
      const zeros = u();
      const k = u();
      const { keys, counts } = arena ? arena.take(k) : { keys: new Int32Array(k), counts: new Float64Array(k) };
      let key = 0;
      for (let j = 0; j < k; j++) {
        if (j === 0) {
          const zz = u();
          key = zz % 2 === 0 ? zz / 2 : -(zz + 1) / 2;
        } else key += u() + 1;
        keys[j] = key;
      }
      for (let j = 0; j < k; j++) counts[j] = u();
      sketches[WINDOW_METRICS[mi]!] = { keys, counts, zeros };
    }
    out.push({
      endpointId,
      regions,
      part: {
        count,
        successes,
        errorKinds,
        lastMeasuredAtMs: last === 0 ? null : last - 1,
        sketches,
        notRankableTotal,
        notRankableByReason,
        fidelityChecks,
        fidelityPassed,
      },
    });
  }
  if (pos !== n) throw new RangeError('window partial has trailing bytes');
  return out;
}
