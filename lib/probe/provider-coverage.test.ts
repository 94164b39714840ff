/**
 * Every seed provider's wire format has replay cases (run over HTTP by cases.test.ts and re-cut by
 * split-invariance.test.ts). This table names them, so a provider without a case fails here.
 */
import { describe, expect, it } from 'vitest';
import { CASES_DIR, loadCases } from './test-support/replay-case';

const COVERAGE: Record<string, string[]> = {
  'SambaNova (usage-only chunk with timings, in-band rate limit)': ['C12', 'T26'],
  'Groq (x_groq usage)': ['C11', 'T28'],
  'Azure OpenAI / Azure AI (empty choices, filter chunks, content_filter)': ['C06', 'T27'],
  'NVIDIA NIM / TensorRT-LLM trtllm-serve (usage null, cumulative text)': ['T23', 'C10', 'T30'],
  'vLLM (role chunk before prefill, running usage, tool parsers)': ['C07', 'T03', 'T29'],
  'SGLang (reasoning parser, finish length)': ['T24'],
  'OpenRouter (comments, in-band errors)': ['C01', 'C15'],
  'Amazon Bedrock ConverseStream (event-stream frames, exceptions)': ['C19', 'T10', 'T11', 'T12'],
  'Google Gemini / Vertex AI (SSE and JSON array)': ['T07', 'T08', 'T09'],
  'Anthropic Messages (cumulative usage, errors, thinking, tools)': ['C13', 'T04', 'T05', 'T06'],
  // Issue 9: the servers and gateways of 2025-2026 whose streams broke the probe.
  'Mistral reasoning (typed thinking parts in content)': ['F02', 'T32'],
  'xAI (reasoning tokens outside completion_tokens)': ['F04', 'T47'],
  'OpenRouter reasoning (reasoning + reasoning_details, finish_reason error)': ['T31', 'T39'],
  'Ollama / llama.cpp (reasoning field, error: lines)': ['F10', 'F01', 'T38'],
  'Gemini thinking and OpenAI-compatible endpoint (thought parts, index-less tool calls)': ['F09', 'F03', 'T40', 'T44'],
  'Gateways and proxies (bare JSON errors, HTML pages, gzip, cut streams, no close)': ['F05', 'F06', 'F07', 'F08', 'T35', 'T36', 'T37', 'T54'],
  // Decision 065: reasoning generated but not streamed.
  'OpenAI o-series / gpt-5 over Chat Completions (hidden reasoning_tokens)': ['T47', 'T56', 'T59'],
  'DeepSeek / vLLM (reasoning_content streamed and reasoning_tokens reported)': ['T57'],
  'Gemini thinking without thought parts (thoughtsTokenCount hidden)': ['T58'],
  'Anthropic redacted / undisplayed thinking (withheld; uncounted or counted)': ['T60', 'T61'],
  'Bedrock redacted reasoning (redactedContent, no reasoning count)': ['T62'],
};

describe('seed provider coverage', () => {
  const ids = new Set(loadCases(CASES_DIR).map((c) => c.id));
  it.each(Object.entries(COVERAGE))('%s', (_provider, caseIds) => {
    for (const id of caseIds) expect(ids.has(id), `missing case ${id}`).toBe(true);
  });
});
