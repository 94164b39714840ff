import { connection } from 'next/server';
import { publicOrigin } from '@/lib/security/public-origin';
import type { Metadata } from 'next';
import Link from 'next/link';
import { buildOpenApiDocument, PUBLIC_READ_OPERATIONS } from '@/lib/api/openapi';

export const metadata: Metadata = { title: 'API' };

interface DocParameter {
  name: string;
  in: 'query' | 'path';
  required?: boolean;
  description?: string;
  schema?: { default?: unknown; enum?: unknown[]; example?: unknown; type?: string };
}
interface DocOperation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters?: DocParameter[];
  responses: Record<string, { description: string; content?: Record<string, { schema?: { $ref?: string } }> }>;
}

function exampleUrl(BASE: string, path: string, query: Record<string, string> | undefined, pathParams: Record<string, string> | undefined): string {
  let p = path;
  for (const [k, v] of Object.entries(pathParams ?? {}))
    p = p.replace(
      `{${k}}`,
      v.replace(/^\{(\w+)\}$/, (_, n: string) => ({ endpointId: '1', snapshotId: 'SNAPSHOT_ID', datasetSlug: 'llmperf-leaderboard-2024-01' })[n] ?? n),
    );
  const qs = new URLSearchParams(query ?? {}).toString();
  return `${BASE}${p}${qs ? `?${qs}` : ''}`;
}

function schemaName(op: DocOperation): string | null {
  const ref = op.responses['200']?.content?.['application/json']?.schema?.$ref;
  return ref ? ref.split('/').pop()! : null;
}

/** API documentation generated from the OpenAPI document (/api/v1/openapi.json), with copy-paste curl, Python and JavaScript examples. */
export default async function ApiDocsPage() {
  await connection();
  // Examples name this site's own origin (TOKENPACE_PUBLIC_URL), never a placeholder host.
  const BASE = publicOrigin();
  const doc = buildOpenApiDocument();
  const paths = doc.paths as Record<string, { get: DocOperation }>;
  const tags = (doc.tags ?? []) as Array<{ name: string; description?: string }>;
  return (
    <>
      <h1>Public API (v1)</h1>
      <p>
        Read-only, JSON by default, CORS open. Every list is also CSV: add <code>.csv</code> to the path or send <code>Accept: text/csv</code>; a CSV column is
        the JSON field’s dotted path (<code>outputTokensPerSecond.p50</code>, <code>ttftMs.p95</code>, <code>endpoint.id</code>), and the JSON field’s
        description gives its unit. Raw measurements: <code>/api/v1/endpoints/&#123;id&#125;/measurements</code>; weekly dumps with checksums:{' '}
        <code>/api/v1/dumps</code>. Reads carry <code>ETag</code> and <code>Cache-Control</code>; send <code>If-None-Match</code> to get 304. Errors always have
        the shape <code>{'{ "error": { "code", "message", "field" } }'}</code> with code one of bad_request, not_found, rate_limited, internal. Clients are rate
        limited per IP address: a refused request answers 429 with a <code>Retry-After</code> header in seconds. Metric definitions:{' '}
        <Link href="/methodology">methodology</Link>. Machine-readable: <a href="/api/v1/openapi.json">OpenAPI 3.1 document</a> (this page is generated from
        it).
      </p>

      <h2 id="quick-start">Quick start: cite a leaderboard figure</h2>
      <pre className="card" style={{ overflowX: 'auto' }}>
        <code>{`curl -s '${BASE}/api/v1/leaderboard?model=llama-4-maverick&workload=prose-1k&window=72h' | jq '.snapshotId, .entries[0]'
curl -s -H 'Accept: text/csv' '${BASE}/api/v1/leaderboard?model=llama-4-maverick&window=7d' > board.csv
curl -s '${BASE}/api/v1/snapshots/SNAPSHOT_ID'   # the same bytes, forever`}</code>
      </pre>
      <pre className="card" style={{ overflowX: 'auto' }}>
        <code>{`# Python (requests)
import requests
board = requests.get("${BASE}/api/v1/leaderboard",
                     params={"model": "llama-4-maverick", "workload": "prose-1k", "window": "72h"}).json()
for e in board["entries"]:
    speed = e["outputTokensPerSecond"] or {}
    print(e["rank"], e["endpoint"]["provider"], speed.get("p50"), "tokens/s, n =", e["n"])
print("cite:", "${BASE}/s/" + board["snapshotId"])`}</code>
      </pre>
      <pre className="card" style={{ overflowX: 'auto' }}>
        <code>{`// JavaScript (fetch)
const res = await fetch('${BASE}/api/v1/leaderboard?model=llama-4-maverick&workload=prose-1k&window=72h');
if (!res.ok) throw new Error((await res.json()).error.message);
const board = await res.json();
console.table(board.entries.map((e) => ({ rank: e.rank, provider: e.endpoint.provider, p50: e.outputTokensPerSecond?.p50, n: e.n })));
console.log('cite:', \`${BASE}/s/\${board.snapshotId}\`);`}</code>
      </pre>

      {tags.map((tag) => {
        // public reads only: the write routes (POST/PATCH/DELETE) have no GET to render here
        const ops = PUBLIC_READ_OPERATIONS.filter((o) => o.tag === tag.name);
        if (ops.length === 0) return null;
        return (
          <section key={tag.name} aria-labelledby={`tag-${tag.name}`}>
            <h2 id={`tag-${tag.name}`}>{tag.name}</h2>
            {tag.description ? <p className="muted">{tag.description}</p> : null}
            {ops.map((o) => {
              const op = paths[o.path]!.get;
              const url = exampleUrl(BASE, o.path, o.exampleQuery, o.examplePath);
              const schema = schemaName(op);
              return (
                <section key={o.path} id={op.operationId} className="card" aria-labelledby={`${op.operationId}-title`}>
                  <h3 id={`${op.operationId}-title`} style={{ margin: 0 }}>
                    <code>GET {o.path}</code>
                  </h3>
                  <p style={{ margin: '0.25rem 0' }}>
                    <strong>{op.summary}.</strong> {op.description}
                  </p>
                  {op.parameters && op.parameters.length > 0 ? (
                    <div className="table-wrap">
                      <table>
                        <caption className="sr-only">Parameters of {o.path}</caption>
                        <thead>
                          <tr>
                            <th>Parameter</th>
                            <th>In</th>
                            <th>Default</th>
                            <th>Meaning</th>
                          </tr>
                        </thead>
                        <tbody>
                          {op.parameters.map((p) => (
                            <tr key={`${p.in}-${p.name}`}>
                              <td>
                                <code>{p.name}</code>
                                {p.required ? ' (required)' : ''}
                              </td>
                              <td>{p.in}</td>
                              <td>{p.schema?.default !== undefined ? <code>{String(p.schema.default)}</code> : '–'}</td>
                              <td style={{ whiteSpace: 'normal' }}>
                                {p.description}
                                {p.schema?.enum ? (
                                  <>
                                    {' '}
                                    One of{' '}
                                    {p.schema.enum.map((v) => (
                                      <code key={String(v)}>{String(v)} </code>
                                    ))}
                                    .
                                  </>
                                ) : null}
                              </td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                  ) : null}
                  <p className="muted" style={{ margin: '0.25rem 0' }}>
                    Responses:{' '}
                    {Object.entries(op.responses)
                      .map(([code, r]) => `${code} ${r.description}`)
                      .join(' · ')}
                    {schema ? (
                      <>
                        {' '}
                        · 200 body: <code>{schema}</code> (see the OpenAPI components)
                      </>
                    ) : null}
                    {o.csv ? ' · CSV available' : ''}
                  </p>
                  <pre style={{ overflowX: 'auto', margin: 0 }}>
                    <code>{`curl -s '${url}'${o.response === null ? '' : o.csv ? `\ncurl -s -H 'Accept: text/csv' '${url}'` : ''}`}</code>
                  </pre>
                </section>
              );
            })}
          </section>
        );
      })}
    </>
  );
}
