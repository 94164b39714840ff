import { corsPreflight, handle, jsonRead, parseQuery } from '@/app/api/_lib/respond';
import { emptyQuerySchema } from '@/lib/api/schemas';
import { publicationRules } from '@/lib/rules/publication-rules';

// GET /api/v1/rules – the rules for listed endpoints (version, date, sections), as on /rules.
export const GET = handle(async (request: Request) => {
  parseQuery(emptyQuerySchema, new URL(request.url).searchParams);
  return jsonRead(request, publicationRules(), 3600);
});
export const OPTIONS = corsPreflight;
