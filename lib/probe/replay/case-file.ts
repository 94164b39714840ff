/**
 * Stream replay case files (format: ../test-support/cases/README.md, the shared `../shared/cases`
 * format plus Tokenpace extensions): schema, loading and bytes. Used by the cases test, by
 * `tokenpace replay` and by `tokenpace probe --record`. A file is `unknown` until
 * `replayCaseSchema` parses it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PROTOCOLS } from '../types';

const nullableMs = z.number().nonnegative().nullable();

/** One socket write: `utf8` text or `base64` bytes, sent `at_ms` after the request was read. */
export const replayWriteSchema = z
  .object({ at_ms: z.number().nonnegative(), utf8: z.string().optional(), base64: z.string().optional() })
  .refine((w) => (w.utf8 === undefined) !== (w.base64 === undefined), { message: 'a write needs exactly one of utf8 or base64' });

/** The `expect` block: what a correct probe reports (times are write `at_ms` values). */
export const replayExpectSchema = z.object({
  outcome: z.enum(['success', 'error']),
  error_kind: z.string().nullable(),
  answer_text: z.string(),
  reasoning_text: z.string().optional(),
  tool_calls: z.array(z.object({ id: z.string().nullable(), name: z.string().nullable(), arguments: z.string() })).optional(),
  finish_reason: z.string().nullable(),
  content_chunks: z.number().int().nonnegative(),
  output_tokens_reported: z.number().nullable(),
  /** Tokenpace extension (decision 065): reasoning tokens counted but not streamed; null when no reasoning count */
  reasoning_tokens_hidden: z.number().int().nonnegative().nullable().optional(),
  ttft_ms: nullableMs,
  ttfat_ms: nullableMs,
  last_token_ms: nullableMs,
  e2e_ms: nullableMs,
  // Tokenpace extensions
  http_status: z.number().int().nullable().optional(),
  retry_after_ms: z.number().nullable().optional(),
  token_count_mismatch: z.boolean().optional(),
  buffered: z.boolean().optional(),
  rankable: z.boolean().optional(),
  not_rankable_reasons: z.array(z.string()).optional(),
  /** Tokenpace extension: reasons that must be among notRankableReasons (others, e.g. clock-dependent ones on a loaded machine, may be present too) */
  not_rankable_reasons_include: z.array(z.string()).optional(),
  unrecognized_paths: z.array(z.string()).optional(),
  error_message_contains: z.string().optional(),
});

/** A whole case file. */
export const replayCaseSchema = z.object({
  id: z.string().min(1),
  kind: z.string(),
  protocol: z.enum(PROTOCOLS),
  about: z.string(),
  source: z.string(),
  request: z.record(z.string(), z.unknown()),
  response: z.object({ status: z.number().int().min(100).max(999), headers: z.record(z.string(), z.string()) }),
  writes: z.array(replayWriteSchema),
  end: z.enum(['close', 'reset', 'hang']),
  expect: replayExpectSchema,
  tolerance_ms: z.number().nonnegative(),
  probe: z
    .object({
      deadlines: z
        .object({ ttftMs: z.number().positive(), idleMs: z.number().positive(), totalMs: z.number().positive(), maxBytes: z.number().positive() })
        .partial()
        .optional(),
    })
    .optional(),
});

export type ReplayWrite = z.infer<typeof replayWriteSchema>;
export type ReplayExpect = z.infer<typeof replayExpectSchema>;
/** A replay case; `file` is the name it was loaded from. */
export type ReplayCase = z.infer<typeof replayCaseSchema> & { file?: string };

/** Bytes of one write. */
export function writeBytes(write: ReplayWrite): Buffer {
  if (write.base64 !== undefined) return Buffer.from(write.base64, 'base64');
  return Buffer.from(write.utf8 ?? '', 'utf8');
}

/** The case's whole body, concatenated. */
export function caseBody(c: ReplayCase): Buffer {
  return Buffer.concat(c.writes.map(writeBytes));
}

/**
 * Parses a case from JSON text. Throws an Error naming the first invalid field
 * (`writes.3.at_ms: ...`) or the JSON syntax error; `label` names the source in the message.
 */
export function parseReplayCase(text: string, label = 'case'): ReplayCase {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${label}: not valid JSON (${(error as Error).message})`, { cause: error });
  }
  const parsed = replayCaseSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${label}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

/** Loads one case file; throws as parseReplayCase (or when unreadable). */
export function loadCaseFile(file: string): ReplayCase {
  return { ...parseReplayCase(readFileSync(file, 'utf8'), file), file: path.basename(file) };
}

/** Loads every `*.json` case of `dir`, sorted by file name. Throws on the first invalid file. */
export function loadCases(dir: string): ReplayCase[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => loadCaseFile(path.join(dir, f)));
}
