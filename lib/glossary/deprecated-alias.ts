/**
 * Deprecated public names (decision 280, CHANGELOG.md): a field renamed to the glossary's term is
 * still served, for one release, under its old name with the same value, marked `deprecated` in
 * the OpenAPI document. Every line that spells an old name carries the marker comment
 * `alias (decision 280)`; lib/glossary/retired-words.test.ts fails on any other occurrence.
 */
import type { z } from 'zod';

/** `schema` as the deprecated alias of the field `replacement`: optional, `deprecated: true`, same value. */
export function deprecatedAlias<T extends z.ZodType>(schema: T, replacement: string) {
  return schema.optional().meta({
    deprecated: true,
    description: `Deprecated alias of ${replacement} (the same value); removed in the next release (CHANGELOG.md).`,
  });
}
