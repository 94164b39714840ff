import type { Metadata } from 'next';

export const metadata: Metadata = { title: 'API' };

const EXAMPLES = [
  { lang: 'curl', code: `curl 'https://tokenpace.example/api/v1/leaderboard?model=llama-4-maverick&workload=prose-1k&window=72h'\ncurl -H 'Accept: text/csv' 'https://tokenpace.example/api/v1/leaderboard?model=llama-4-maverick'` },
  { lang: 'Python', code: `import requests\nr = requests.get("https://tokenpace.example/api/v1/leaderboard", params={"model": "llama-4-maverick", "window": "72h"})\nboard = r.json()\nfor e in board["entries"]:\n    print(e["rank"], e["endpoint"]["provider"], (e["outputTokensPerSecond"] or {}).get("p50"))\nprint("cite:", board["snapshotId"])` },
  { lang: 'JavaScript', code: `const res = await fetch('https://tokenpace.example/api/v1/leaderboard?model=llama-4-maverick&window=72h');\nconst board = await res.json();\nconsole.log(board.entries.map((e) => [e.endpoint.provider, e.outputTokensPerSecond?.p50]));` },
];

const ROUTES = [
  ['GET /api/v1/leaderboard', 'model, workload, window (72h, 7d), region, basis (reported|o200k), at (ISO time: the board as it stood then). Returns entries with P5–P95 of TPS/user, TTFT, TTFAT, E2E, success rate, rank and tie band, plus snapshotId.'],
  ['GET /api/v1/leaderboard.csv', 'The same as CSV (also Accept: text/csv on the JSON route).'],
  ['GET /api/v1/snapshots/{id}', 'The exact answer first served under a snapshotId, byte-identical forever. Human page: /s/{id}.'],
  ['GET /api/v1/models', 'Models and workloads.'],
  ['GET /api/v1/providers', 'Providers.'],
  ['GET /api/v1/endpoints', 'Endpoints with declared metadata (model, provider filters); .csv too.'],
  ['GET /api/v1/endpoints/{id}', 'One endpoint.'],
  ['GET /api/v1/endpoints/{id}/measurements', 'Raw measurements, newest first; limit, cursor; each with its timeline (timeline=0 to omit).'],
  ['GET /api/v1/endpoints/{id}/history', 'Hourly or daily rollups: workload, granularity (hour|day), range (24h|7d|30d|90d|all).'],
  ['GET /api/v1/claims', 'Published claims with source and bound; .csv too.'],
  ['GET /api/v1/datasets', 'Imported datasets with provenance.'],
  ['GET /api/v1/datasets/{slug}', 'One dataset with each series’ summary statistics.'],
];

/** API documentation with copy-paste examples. */
export default function ApiDocsPage() {
  return (
    <>
      <h1>Public API (v1)</h1>
      <p>Read-only, JSON by default, CSV where noted, CORS open. Errors always have the shape <code>{'{ "error": { "code", "message", "field" } }'}</code>. Responses carry ETag and Cache-Control. The OpenAPI 3.1 document is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p>
      <div className="table-wrap">
        <table>
          <thead><tr><th>Route</th><th>What it returns</th></tr></thead>
          <tbody>{ROUTES.map(([r, d]) => <tr key={r}><td><code>{r}</code></td><td style={{ whiteSpace: 'normal' }}>{d}</td></tr>)}</tbody>
        </table>
      </div>
      {EXAMPLES.map((e) => (
        <section key={e.lang}>
          <h2>{e.lang}</h2>
          <pre className="card" style={{ overflowX: 'auto' }}><code>{e.code}</code></pre>
        </section>
      ))}
    </>
  );
}
