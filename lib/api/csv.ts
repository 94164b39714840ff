/**
 * The one JSON → CSV flattener of the public API (decision 075). Every CSV answer and the weekly
 * dump are written by it, so a CSV always carries every figure of the JSON and names it the same:
 * a column is the JSON field's dotted path inside one list item (`outputTokensPerSecond.p50`,
 * `endpoint.id`, `errorKinds.timeout`).
 *
 * Columns come from the zod response schema of a row, not from the data, so every page of a list
 * and every dump has the same header even when a value is null everywhere:
 * - objects (also nullable or optional ones) are walked: a null object gives empty cells;
 * - records whose keys are a declared enum (`z.partialRecord(z.enum([...]), …)`) give one column per key;
 *   records with free keys give one cell holding compact JSON (a fixed header beats a guessed one);
 * - arrays of scalars give one cell with the values joined by `;`; arrays of objects (timelines)
 *   are left out: they are not figures, and the JSON route serves them;
 * - numbers are written as JavaScript prints them (shortest round-trip form, full precision),
 *   booleans as true/false, null/undefined as an empty cell.
 * Cells are quoted per RFC 4180; lines end with CRLF. Text cells that could start a spreadsheet
 * formula are neutralised with a leading `'` (OWASP CSV injection rule; see neutraliseFormula).
 */
import type { z } from 'zod';

/** One column: its header (dotted path) and how to read its cell from a row. */
export interface CsvColumn {
  name: string;
  /** the field's description from the schema's metadata (units and source), when it has one */
  description?: string;
  read: (row: unknown) => unknown;
}

type Def = { type: string; [k: string]: unknown };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Strips wrappers that do not change the shape (nullable, optional, default, pipe, readonly…). */
function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (;;) {
    const def = defOf(s);
    if (
      def.type === 'nullable' ||
      def.type === 'optional' ||
      def.type === 'default' ||
      def.type === 'prefault' ||
      def.type === 'readonly' ||
      def.type === 'catch' ||
      def.type === 'nonoptional'
    )
      s = def.innerType as z.ZodType;
    else if (def.type === 'pipe') s = (defOf(def.in as z.ZodType).type === 'transform' ? def.out : def.in) as z.ZodType;
    else if (def.type === 'lazy') s = (def.getter as () => z.ZodType)();
    else return s;
  }
}

/** The declared keys of a record key schema, or null when keys are free. */
function enumKeys(keySchema: z.ZodType): string[] | null {
  const def = defOf(unwrap(keySchema));
  if (def.type === 'enum') return Object.values(def.entries as Record<string, string>);
  if (def.type === 'literal') return (def.values as unknown[]).map(String);
  return null;
}

function get(row: unknown, path: string[]): unknown {
  let v = row;
  for (const k of path) {
    if (v === null || v === undefined || typeof v !== 'object') return null;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** The description in a schema's metadata, looking through wrappers (the outermost one wins). */
function describe(schema: z.ZodType): string | undefined {
  let s: z.ZodType | undefined = schema;
  while (s) {
    const d = (s.meta() as { description?: string } | undefined)?.description ?? s.description;
    if (d) return d;
    const def = defOf(s);
    s = (def.innerType ?? (def.type === 'pipe' ? def.in : undefined)) as z.ZodType | undefined;
  }
  return undefined;
}

function walk(schema: z.ZodType, path: string[], out: CsvColumn[], inherited?: string): void {
  const s = unwrap(schema);
  const def = defOf(s);
  const name = path.join('.');
  const description = describe(schema) ?? inherited;
  if (def.type === 'object') {
    for (const [k, child] of Object.entries((def.shape as Record<string, z.ZodType>) ?? {})) walk(child, [...path, k], out, description);
    return;
  }
  if (def.type === 'record') {
    const keys = enumKeys(def.keyType as z.ZodType);
    if (keys) for (const k of keys) walk(def.valueType as z.ZodType, [...path, k], out, description);
    else
      out.push({
        name,
        description,
        read: (row) => {
          const v = get(row, path);
          return v === null || v === undefined ? null : JSON.stringify(v);
        },
      });
    return;
  }
  if (def.type === 'array') {
    const el = defOf(unwrap(def.element as z.ZodType)).type;
    if (el === 'object' || el === 'record' || el === 'array') return;
    out.push({
      name,
      description,
      read: (row) => {
        const v = get(row, path);
        return Array.isArray(v) ? v.join(';') : null;
      },
    });
    return;
  }
  out.push({ name, description, read: (row) => get(row, path) });
}

/**
 * The CSV columns of rows shaped by `rowSchema` (an object schema), in schema order. `omit` drops
 * top-level fields by name (e.g. a timeline). Throws when the schema is not an object.
 */
export function csvColumnsOf(rowSchema: z.ZodType, omit: readonly string[] = []): CsvColumn[] {
  const def = defOf(unwrap(rowSchema));
  if (def.type !== 'object') throw new Error(`csvColumnsOf: row schema must be an object, got ${def.type}`);
  const out: CsvColumn[] = [];
  for (const [k, child] of Object.entries(def.shape as Record<string, z.ZodType>)) if (!omit.includes(k)) walk(child, [k], out);
  return out;
}

/**
 * Text that a spreadsheet would read as a formula (CSV/formula injection, OWASP "CSV Injection"):
 * a cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return, also after leading spaces
 * (spreadsheets trim them) and in the full-width forms (＝＋－＠) that some spreadsheets fold.
 */
const FORMULA_START = /^[ \u00a0]*[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;

/**
 * Neutralises text cells per the OWASP rule: a text value that could start a formula gets a
 * leading `'` (and is then quoted like any cell). Only strings: numbers (also negative ones) and
 * booleans are written as they are. So provider-controlled text (an answer, an error message, a
 * name) never runs in the reader's spreadsheet (issue 19 finding 7); a consumer recovering the
 * exact text drops one leading `'` from a cell that starts with `'` followed by one of those
 * characters. Exported for tests and other writers of CSV.
 */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One RFC 4180 cell, formula-neutralised (see neutraliseFormula). */
function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'string' ? neutraliseFormula(v) : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
  return /[",\r\n']/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The header line (with CRLF) of the given columns. */
export function csvHeaderLine(columns: readonly CsvColumn[]): string {
  return columns.map((c) => csvCell(c.name)).join(',') + '\r\n';
}

/** One data line (with CRLF) of a row. */
export function csvRowLine(columns: readonly CsvColumn[], row: unknown): string {
  return columns.map((c) => csvCell(c.read(row))).join(',') + '\r\n';
}

/**
 * A whole CSV document: header + one line per row. `context` adds answer-level scalars (e.g. the
 * leaderboard's asOf and snapshotId) as trailing columns named by their own top-level JSON names,
 * skipping any name the row already has.
 */
export function toCsv(
  rowSchema: z.ZodType,
  rows: readonly unknown[],
  options: { omit?: readonly string[]; context?: { schema: z.ZodType; value: unknown } } = {},
): string {
  const columns = csvColumnsOf(rowSchema, options.omit);
  if (options.context) {
    const have = new Set(columns.map((c) => c.name));
    const ctxValue = options.context.value;
    for (const c of csvColumnsOf(options.context.schema)) if (!have.has(c.name)) columns.push({ ...c, read: () => c.read(ctxValue) });
  }
  let text = csvHeaderLine(columns);
  for (const r of rows) text += csvRowLine(columns, r);
  return text;
}
