import { describe, expect, it } from 'vitest';
import { getAdapter } from './registry';

const input = { model: 'm-1', apiKey: 'k', prompt: 'Hello', maxOutputTokens: 64 };

describe('adapter requests', () => {
  it('openai-chat: POST {base}/chat/completions with stream, include_usage and max_tokens', () => {
    const r = getAdapter('openai-chat').buildRequest({ ...input, url: 'https://api.groq.com/openai/v1/' });
    expect(r.url).toBe('https://api.groq.com/openai/v1/chat/completions');
    expect(JSON.parse(r.init.body)).toEqual({
      model: 'm-1',
      messages: [{ role: 'user', content: 'Hello' }],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 64,
    });
    expect(r.init.headers.authorization).toBe('Bearer k');
    expect(getAdapter('openai-chat').buildRequest({ ...input, url: 'http://h/v1/chat/completions' }).url).toBe('http://h/v1/chat/completions');
  });

  it.each([
    ['https://api.anthropic.com', 'https://api.anthropic.com/v1/messages'],
    ['https://gateway.example.com/anthropic/v1', 'https://gateway.example.com/anthropic/v1/messages'],
    ['https://gateway.example.com/v1/messages', 'https://gateway.example.com/v1/messages'],
  ])('anthropic-messages: %s → %s', (url, expected) => {
    const r = getAdapter('anthropic-messages').buildRequest({ ...input, url });
    expect(r.url).toBe(expected);
    expect(r.init.headers['x-api-key']).toBe('k');
    expect(r.init.headers['anthropic-version']).toBe('2023-06-01');
    expect(JSON.parse(r.init.body)).toMatchObject({ model: 'm-1', max_tokens: 64, stream: true });
  });

  it('gemini-stream: models/{model}:streamGenerateContent?alt=sse, key header; Vertex uses Bearer', () => {
    const r = getAdapter('gemini-stream').buildRequest({ ...input, model: 'models/gemini-2.5-flash', url: 'https://generativelanguage.googleapis.com/v1beta' });
    expect(r.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(r.init.headers['x-goog-api-key']).toBe('k');
    expect(JSON.parse(r.init.body)).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hello' }] }], generationConfig: { maxOutputTokens: 64 } });
    const v = getAdapter('gemini-stream').buildRequest({
      ...input,
      url: 'https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/publishers/google',
    });
    expect(v.init.headers.authorization).toBe('Bearer k');
  });

  it('bedrock-converse-stream: model id escaped, Bearer API key, or SigV4 with credentials', () => {
    const a = getAdapter('bedrock-converse-stream');
    const url = 'https://bedrock-runtime.us-west-2.amazonaws.com';
    const withKey = a.buildRequest({ ...input, model: 'us.meta.llama4-maverick-17b-instruct-v1:0', url });
    expect(withKey.url).toBe('https://bedrock-runtime.us-west-2.amazonaws.com/model/us.meta.llama4-maverick-17b-instruct-v1%3A0/converse-stream');
    expect(withKey.init.headers.authorization).toBe('Bearer k');
    expect(JSON.parse(withKey.init.body)).toEqual({ messages: [{ role: 'user', content: [{ text: 'Hello' }] }], inferenceConfig: { maxTokens: 64 } });
    const signed = a.buildRequest({
      ...input,
      apiKey: null,
      model: 'x:0',
      url,
      awsCredentials: { accessKeyId: 'AKID', secretAccessKey: 'secret' },
      now: new Date('2026-11-29T18:00:00Z'),
    });
    expect(signed.init.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKID\/20261129\/us-west-2\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    expect(signed.init.headers['x-amz-date']).toBe('20261129T180000Z');
    expect(signed.init.headers.host).toBeUndefined();
  });

  it('getAdapter refuses an unknown protocol', () => {
    expect(() => getAdapter('grpc' as never)).toThrow(TypeError);
  });
});

describe('provider quirks in requests', () => {
  it('Azure: api-key header and a default api-version; an explicit version is kept', () => {
    const a = getAdapter('openai-chat');
    const models = a.buildRequest({ ...input, url: 'https://res.services.ai.azure.com/models' });
    expect(models.url).toBe('https://res.services.ai.azure.com/models/chat/completions?api-version=2024-05-01-preview');
    expect(models.init.headers['api-key']).toBe('k');
    const aoai = a.buildRequest({ ...input, url: 'https://res.openai.azure.com/openai/deployments/gpt-4o?api-version=2025-01-01-preview' });
    expect(aoai.url).toBe('https://res.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2025-01-01-preview');
    expect(a.buildRequest({ ...input, url: 'https://api.groq.com/openai/v1' }).init.headers['api-key']).toBeUndefined();
  });

  it('Bedrock: an access key id passed as API key is not sent as a bearer token', () => {
    const a = getAdapter('bedrock-converse-stream');
    const url = 'https://bedrock-runtime.us-east-1.amazonaws.com';
    const unsigned = a.buildRequest({ ...input, apiKey: 'AKIAIOSFODNN7EXAMPLE', url });
    expect(unsigned.init.headers.authorization).toBeUndefined();
    const signed = a.buildRequest({
      ...input,
      apiKey: 'AKIAIOSFODNN7EXAMPLE',
      url,
      awsCredentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 's' },
    });
    expect(signed.init.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\//);
  });
});
