import { describe, expect, it } from 'vitest';
import { signAwsRequestV4 } from './aws-sigv4';

// Vectors from the AWS SigV4 test suite (aws-sig-v4-test-suite): credentials AKIDEXAMPLE /
// wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY, us-east-1, service "service", 20150830T123600Z.
const base = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
  service: 'service',
  date: new Date('2015-08-30T12:36:00Z'),
};

describe('signAwsRequestV4', () => {
  it.each([
    ['get-vanilla', 'GET', 'https://example.amazonaws.com/', '5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31'],
    ['post-vanilla', 'POST', 'https://example.amazonaws.com/', '5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b'],
    [
      'get-vanilla-query-order-key-case (sorted query)',
      'GET',
      'https://example.amazonaws.com/?Param2=value2&Param1=value1',
      'b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500',
    ],
  ])('matches the %s test vector', (_vector, method, url, signature) => {
    const headers = signAwsRequestV4({ ...base, method, url, headers: {}, body: '' });
    expect(headers.authorization).toBe(
      `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=${signature}`,
    );
    expect(headers['x-amz-date']).toBe('20150830T123600Z');
  });

  it('signs the session token and extra headers', () => {
    const headers = signAwsRequestV4({
      ...base,
      sessionToken: 'TOKEN',
      method: 'POST',
      url: 'https://bedrock-runtime.us-east-1.amazonaws.com/model/a%3A0/converse-stream',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(headers['x-amz-security-token']).toBe('TOKEN');
    expect(headers.authorization).toContain('SignedHeaders=content-type;host;x-amz-date;x-amz-security-token');
  });
});
