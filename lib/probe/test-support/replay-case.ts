/**
 * Stream replay cases (format: ./cases/README.md): loading and typing. Test support only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProbeDeadlines, Protocol } from '../types';

/** One socket write of a case. */
export interface ReplayWrite {
  at_ms: number;
  utf8?: string;
  base64?: string;
}

/** What a correct probe reports for the case (see cases/README.md "Expected results"). */
export interface ReplayExpect {
  outcome: 'success' | 'error';
  error_kind: string | null;
  answer_text: string;
  reasoning_text?: string;
  tool_calls?: Array<{ id: string | null; name: string | null; arguments: string }>;
  finish_reason: string | null;
  content_chunks: number;
  output_tokens_reported: number | null;
  ttft_ms: number | null;
  ttfat_ms: number | null;
  last_token_ms: number | null;
  e2e_ms: number | null;
  /** Tokenpace extensions (T cases): */
  http_status?: number | null;
  retry_after_ms?: number | null;
  token_count_mismatch?: boolean;
  buffered?: boolean;
  /** Tokenpace extensions (issue 9): rankability and the evidence of unrecognised shapes. */
  rankable?: boolean;
  not_rankable_reasons?: string[];
  /** the exact evidence.unrecognizedPaths; when absent, the probe must have recognised every shape */
  unrecognized_paths?: string[];
  /** a substring the error message must contain (the server's own words kept) */
  error_message_contains?: string;
}

/** A replay case file. */
export interface ReplayCase {
  id: string;
  kind: string;
  protocol: Protocol;
  about: string;
  source: string;
  request: Record<string, unknown>;
  response: { status: number; headers: Record<string, string> };
  writes: ReplayWrite[];
  end: 'close' | 'reset' | 'hang';
  expect: ReplayExpect;
  tolerance_ms: number;
  /** Tokenpace extension: probe settings the case needs (short deadlines for hangs, byte caps). */
  probe?: { deadlines?: Partial<ProbeDeadlines> };
  /** file name the case was loaded from */
  file?: string;
}

/** Bytes of one write. */
export function writeBytes(write: ReplayWrite): Buffer {
  if (write.base64 !== undefined) return Buffer.from(write.base64, 'base64');
  return Buffer.from(write.utf8 ?? '', 'utf8');
}

/** The case's whole body, concatenated. */
export function caseBody(c: ReplayCase): Buffer {
  return Buffer.concat(c.writes.map(writeBytes));
}

/** Loads every `*.json` case of `dir`, sorted by file name. Throws on unreadable JSON. */
export function loadCases(dir: string): ReplayCase[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ ...(JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as ReplayCase), file: f }));
}

/** The folder of the copied and added cases. */
export const CASES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cases');
