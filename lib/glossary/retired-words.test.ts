/**
 * A search for the retired words (lib/glossary/terms.ts) finds them only in the documented
 * aliases (issue 28 done-when): every other occurrence in code, API schemas, pages, tests, docs
 * and scripts fails here with its file and line. Allowed: a line carrying ALIAS_MARKER or the
 * line right after one (a leading comment), this folder, CHANGELOG.md, and history that is never
 * rewritten (docs/decisions, db/migrations).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '@/lib/api/openapi';
import { projectFiles } from '../house/test-support/project-files';
import { ALIAS_MARKER, GLOSSARY, RETIRED_API_FIELDS, RETIRED_PUBLIC_WORDS, RETIRED_WORDS } from './terms';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SKIP_DIRS = new Set(['node_modules', '.next', '.git', 'data', 'test-results', 'playwright-report', 'coverage']);
const SKIP_PATHS = ['lib/glossary/', 'docs/decisions/', 'db/migrations/', 'CHANGELOG.md'];
const EXTENSIONS = /\.(ts|tsx|mts|mjs|cjs|js|json|md|sql|css|yml|yaml|sh)$/;

function* files(): Generator<string> {
  for (const rel of projectFiles(ROOT, SKIP_DIRS)) {
    if (SKIP_PATHS.some((p) => rel === p || rel.startsWith(p))) continue;
    if (rel.split('/').some((part) => SKIP_DIRS.has(part))) continue;
    if (EXTENSIONS.test(rel) && rel !== 'package-lock.json') yield rel;
  }
}

/** Occurrences of `words` (whole identifiers) in `text` that are not documented aliases: "line: text". */
export function findRetired(text: string, words: readonly string[]): string[] {
  const re = new RegExp(`(?<![A-Za-z0-9_])(${words.join('|')})(?![A-Za-z0-9_])`);
  const lines = text.split('\n');
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (!re.test(line)) return;
    if (line.includes(ALIAS_MARKER) || (i > 0 && lines[i - 1]!.includes(ALIAS_MARKER))) return;
    out.push(`${i + 1}: ${line.trim().slice(0, 160)}`);
  });
  return out;
}

describe('retired words', () => {
  it('the search finds a retired word, passes a marked alias line and the line after a marker, and does not match inside a longer name', () => {
    const [word] = RETIRED_WORDS;
    expect(findRetired(`a.${word!}\n`, RETIRED_WORDS)).toEqual([`1: a.${word!}`]);
    expect(findRetired(`x: a.${word!}, // ${ALIAS_MARKER}\n`, RETIRED_WORDS)).toEqual([]);
    expect(findRetired(`// ${ALIAS_MARKER}\n${word!}: 1,\n${word!}: 2,\n`, RETIRED_WORDS)).toEqual([`3: ${word!}: 2,`]);
    expect(findRetired(`${word!}Extra and pre${word!}`, RETIRED_WORDS)).toEqual([]);
  });

  it('every retired word has a replacement that is one of its term’s names', () => {
    for (const t of GLOSSARY)
      for (const r of t.retired) {
        expect(
          t.names.some((n) => r.replacement.includes(n)),
          `${r.word} → ${r.replacement}`,
        ).toBe(true);
        expect(t.names).not.toContain(r.word);
      }
    expect(new Set(RETIRED_WORDS).size).toBe(RETIRED_WORDS.length);
  });

  it('appear in the tree only as documented aliases', () => {
    const found: string[] = [];
    let scanned = 0;
    for (const rel of files()) {
      scanned++;
      for (const hit of findRetired(fs.readFileSync(path.join(ROOT, rel), 'utf8'), RETIRED_WORDS)) found.push(`${rel}:${hit}`);
    }
    expect(scanned).toBeGreaterThan(500);
    expect(found).toEqual([]);
  });

  it('each retired public word is still served by at least one alias (one release), and CHANGELOG.md names every retired public name', () => {
    const changelog = fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
    const aliased = new Set<string>();
    for (const rel of files()) {
      const text = fs.readFileSync(path.join(ROOT, rel), 'utf8');
      if (!text.includes(ALIAS_MARKER)) continue;
      for (const w of RETIRED_WORDS) if (text.includes(w)) aliased.add(w);
    }
    for (const w of RETIRED_PUBLIC_WORDS) {
      expect(aliased, w).toContain(w);
      expect(changelog, w).toContain(`\`${w}\``);
    }
    for (const { field } of RETIRED_API_FIELDS) expect(changelog, field).toContain(`\`${field.split('.')[1]!}\``);
    expect(changelog).toContain('`ExcludedCounts`');
  });

  it('each retired public field is, in the OpenAPI document, a deprecated alias beside its replacement', () => {
    const schemas = (buildOpenApiDocument() as unknown as { components: { schemas: Record<string, { properties?: Record<string, Record<string, unknown>> }> } })
      .components.schemas;
    expect(RETIRED_API_FIELDS.length).toBeGreaterThanOrEqual(4);
    for (const { field, replacement } of RETIRED_API_FIELDS) {
      const [schema, name] = field.split('.') as [string, string];
      const props = schemas[schema]?.properties ?? {};
      expect(props[name], field).toBeDefined();
      expect(JSON.stringify(props[name]), field).toContain('"deprecated":true');
      expect(props[replacement], `${field} → ${replacement}`).toBeDefined();
      expect(JSON.stringify(props[replacement]), replacement).not.toContain('"deprecated":true');
    }
  });
});
