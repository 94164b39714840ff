import type { Metadata } from 'next';

export const metadata: Metadata = { title: 'Methodology' };

const METRICS: Array<{ id: string; name: string; unit: string; formula: string; source: string }> = [
  { id: 'ttfb', name: 'TTFB', unit: 'ms', formula: 'request start → first response byte', source: 'HTTP timing convention' },
  { id: 'ttft', name: 'TTFT (time to first token)', unit: 'ms', formula: 'request start → arrival of the first event carrying any generated token (answer, reasoning or tool-call arguments); role-only, empty, keep-alive and usage chunks do not count', source: 'NVIDIA GenAI-Perf/AIPerf; vLLM/SGLang bench_serving' },
  { id: 'ttfat', name: 'TTFAT (time to first answer token)', unit: 'ms', formula: 'request start → first answer token (text or tool call), after any reasoning', source: 'Artificial Analysis methodology' },
  { id: 'output-speed', name: 'Output speed, TPS/user', unit: 'tokens/s', formula: '(N − tokens in the first content event) ÷ (time of last content event − time of first content event)', source: 'Artificial Analysis (output speed after first chunk); equals 1/TPOT of vLLM, SGLang and TensorRT-LLM benchmarks' },
  { id: 'tpot', name: 'TPOT (time per output token)', unit: 'ms/token', formula: '(E2E − TTFT) ÷ (N − 1)', source: 'vLLM/SGLang bench_serving' },
  { id: 'itl', name: 'ITL (inter-token latency)', unit: 'ms/token', formula: 'gap between consecutive content events ÷ tokens in the later event (chunk-aware)', source: 'vLLM/SGLang bench_serving, made chunk-aware' },
  { id: 'e2e', name: 'E2E latency', unit: 'ms', formula: 'request start → end of stream', source: 'LLMPerf, bench_serving' },
  { id: 'tokens', name: 'N (output tokens)', unit: 'tokens', formula: 'provider-reported completion_tokens from exactly one source; also an o200k_base count of all generated text so providers with different tokenizers compare fairly', source: 'Artificial Analysis (o200k_base normalisation)' },
  { id: 'throughput', name: 'Throughput (aggregate)', unit: 'tokens/s', formula: 'tokens/s summed over all concurrent streams; not TPS/user. LLMPerf’s per-request "throughput" includes TTFT and is kept apart', source: 'LLMPerf, AIPerf' },
  { id: 'success-rate', name: 'Success rate', unit: 'fraction', formula: 'successful probes ÷ all probes in the window, with a Wilson 95 % score interval', source: 'Wilson (1927)' },
];

/** Methodology: every metric's definition, formula, unit and source; workloads, schedule, failures, ties. */
export default function MethodologyPage() {
  return (
    <>
      <h1>Methodology</h1>
      <p>All times come from a monotonic clock in a worker process separate from the web server. Request start is taken just before the request is written. Percentiles use linear interpolation (the numpy/pandas default).</p>
      <h2>Metrics</h2>
      {METRICS.map((m) => (
        <section key={m.id} id={m.id} className="card">
          <h3 style={{ margin: 0 }}>{m.name} <span className="muted">({m.unit})</span></h3>
          <p style={{ margin: '0.25rem 0' }}>{m.formula}</p>
          <p className="muted" style={{ margin: 0 }}>Source: {m.source}</p>
        </section>
      ))}
      <h2 id="workloads">Workloads and schedule</h2>
      <p>Each workload fixes a prompt category (prose, code, math, JSON extraction), an input length (~100, ~1k or ~10k tokens) and an output budget. Every prompt carries a fresh nonce derived from its time slot, so no cache can serve it, while all endpoints in one slot receive the same prompt. A pg-boss cron enqueues one keyed probe per active endpoint × scheduled workload × region per slot; a slot runs once even with many workers.</p>
      <h2 id="failures">What counts as a failure</h2>
      <p>Every probe is stored. Failures carry a kind: timeout (a deadline: TTFT, idle gap between tokens, or total), rate_limited (HTTP 429 or an in-stream throttling error; Retry-After is honoured), http_error, stream_error (error inside a 200 stream, cut-off stream, unparsable body, byte cap), empty (no tokens), cancelled, blocked (SSRF guard) and invalid_url. Failures are never counted as slow successes. Measurements taken while the worker’s event loop was delayed more than 50 ms are kept but marked invalid and not ranked.</p>
      <h2 id="ties">How ties are decided</h2>
      <p>Rankings use a 72-hour window by default and report the median with P5–P95 and the sample count. Each median gets a seeded bootstrap 95 % interval (1,000 resamples). Sorted by median, an endpoint joins the band of the band leader whose interval it overlaps; endpoints in one band are shown as tied (competition ranking 1, 1, 3). Endpoints with fewer than 3 successful samples are listed unranked.</p>
      <h2 id="calibration">Calibration</h2>
      <p>A reference server streams at a configured rate and TTFT; it is scheduled and probed like any endpoint and shown apart with its measurement error.</p>
      <h2 id="claims">Claims and imported data</h2>
      <p>Claims are figures published by vendors or the press (e.g. 1,038 TPS/user for an NVIDIA DGX B200 in May 2025, measured by Artificial Analysis). Imported datasets (LLMPerf leaderboard raw data) are third-party measurements with their provenance and licence. Neither is mixed with our measurements.</p>
    </>
  );
}
