/**
 * Test support (vitest only): the part of a submission body (POST /api/v1/endpoints) that points
 * at a local reference server over Chat Completions: `model` (a catalogue model slug, default the
 * reference model), `baseUrl` (e.g. the reference server's http://127.0.0.1:PORT/v1), protocol
 * openai-chat and the reference server's model id. Spread it into the body beside the provider,
 * key, deployment and contact fields.
 */
export function chatSubmission(baseUrl: string, model = 'tokenpace-reference') {
  return { model, baseUrl, protocol: 'openai-chat', apiModelId: 'tokenpace-reference' };
}

/**
 * A whole submission body of a shared (serverless) deployment behind `baseUrl` over Chat
 * Completions: `fields` names the provider and the contact and may add or override any other field
 * (apiKey, hardware, …; `model` picks the catalogue model as in chatSubmission).
 */
export function sharedChatSubmission(baseUrl: string, fields: { provider: string; contact: string; model?: string; [field: string]: unknown }) {
  const { model, ...rest } = fields;
  return { ...chatSubmission(baseUrl, model), deploymentKind: 'shared', ...rest };
}
