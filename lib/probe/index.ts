/**
 * Public surface of the probe core (import from '@/lib/probe' or the individual files).
 */
export { probeEndpoint } from './probe-endpoint';
export { parseStream, type StreamParseResult, type ParseStreamOptions, type StreamEndReason } from './parse-stream';
export { buildProbeResult, buildFailedProbeResult, TOKEN_COUNT_MISMATCH_RATIO } from './build-probe-result';
export { getAdapter, isProtocol } from './adapters/registry';
export type { ProtocolAdapter, WireEvent, StreamDecoder } from './adapters/adapter';
export { normalizeFinishReason } from './adapters/normalize';
export { encodeTimeline, decodeTimeline, TIMELINE_RESOLUTION_MS } from './timeline-codec';
export { createLoopDelayMonitor, MAX_LOOP_DELAY_P99_MS, type LoopDelayMonitor, type LoopDelaySummary } from './loop-delay-monitor';
export { WORKLOADS, buildPrompt, getWorkloadOrThrow, DEFAULT_MAX_OUTPUT_TOKENS, type Workload, type WorkloadCategory } from './workloads';
export { parseRetryAfterMs } from './retry-after';
export { signAwsRequestV4 } from './aws-sigv4';
export * from './types';
