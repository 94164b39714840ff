'use client';
import { CartesianGrid, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** One chunk arrival: ms since request start and the tokens it carried. */
export interface Chunk {
  atMs: number;
  tokens: number;
  channel: string;
}

/**
 * Evidence viewer chart: cumulative tokens against time since request start, one step per chunk
 * arrival (recharts, no animation), with TTFT and end of stream marked. The figure's data
 * attributes carry the totals read from the timeline (chunks, tokens, first/last arrival in ms)
 * so tests can compare them with the measurement's raw JSON.
 */
export function TimelineChart({
  chunks,
  ttftMs,
  e2eMs,
  title,
  id,
}: {
  chunks: Chunk[];
  ttftMs: number | null;
  e2eMs: number | null;
  title: string;
  id: string;
}) {
  let total = 0;
  const data = [{ t: 0, tokens: 0 }, ...chunks.map((c) => ({ t: c.atMs, tokens: (total += c.tokens) }))];
  const first = chunks[0];
  const last = chunks[chunks.length - 1];
  const speed = first && last && last.atMs > first.atMs ? (total - first.tokens) / ((last.atMs - first.atMs) / 1000) : null;
  return (
    <figure
      className="chart"
      role="img"
      aria-label={`${title}: ${chunks.length} chunks carrying ${total} tokens; first token at ${first ? first.atMs.toFixed(1) : '–'} ms, last chunk at ${last ? last.atMs.toFixed(1) : '–'} ms${speed ? `, so ${speed.toFixed(1)} tokens/s after the first chunk` : ''}.`}
      data-chart={id}
      data-chunks={chunks.length}
      data-tokens={total}
      data-first-ms={first?.atMs ?? ''}
      data-last-ms={last?.atMs ?? ''}
      data-speed={speed ?? ''}
      style={{ height: 300 }}
    >
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ left: 0, right: 16, top: 24, bottom: 4 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis
            dataKey="t"
            type="number"
            domain={[0, 'dataMax']}
            tickFormatter={(v: number) => `${Math.round(v)}`}
            label={{ value: 'ms since request start', position: 'insideBottomRight', offset: -2, fontSize: 11 }}
            height={36}
          />
          <YAxis width={48} allowDecimals={false} label={{ value: 'tokens', angle: -90, position: 'insideLeft', offset: 12, fontSize: 11 }} />
          <Tooltip labelFormatter={(t) => `${Number(t).toFixed(1)} ms`} formatter={(v) => [String(v), 'tokens so far']} />
          <Line
            type="stepAfter"
            dataKey="tokens"
            stroke="var(--accent)"
            strokeWidth={2}
            dot={chunks.length <= 120 ? { r: 1.5 } : false}
            isAnimationActive={false}
            name="tokens so far"
          />
          {ttftMs !== null ? (
            <ReferenceLine
              x={ttftMs}
              stroke="var(--accent-2)"
              strokeDasharray="4 3"
              label={{ value: `TTFT ${Math.round(ttftMs)} ms`, position: 'top', fill: 'var(--fg)', fontSize: 11 }}
            />
          ) : null}
          {e2eMs !== null ? (
            <ReferenceLine
              x={e2eMs}
              stroke="var(--muted)"
              strokeDasharray="2 3"
              label={{ value: 'end', position: 'insideTopRight', fill: 'var(--fg)', fontSize: 11 }}
            />
          ) : null}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
