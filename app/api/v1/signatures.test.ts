/**
 * Signed publications (decision 230), over a real local HTTP server and the production route
 * handlers: boards, snapshots, dump manifests and dump files verify with `tokenpace verify`, with
 * the README's openssl/python3 steps as they stand, and with openssl directly; one changed byte
 * fails; after a key rotation what the old key signed still verifies and new answers carry the new key.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestDatabase } from '@/db/test-support/test-database';
import { resetSignerCache, createSigningKey } from '@/server/signing';
import { runVerifyCommand } from '@/cli/verify-command';
import { extractEmbeddedSignature, parseSignatureHeader } from '@/lib/security/signatures';
import { readmeSteps } from './test-support/readme-steps';
import { useServedApiData, type ServedApiData } from './test-support/use-served-api-data';

vi.mock('next/server', async (importOriginal) => ({ ...(await importOriginal<typeof import('next/server')>()), connection: async () => {} }));

const run = promisify(execFile);
const NOW = Date.now();
const SECRET = randomBytes(32).toString('hex');
let t: TestDatabase;
let server: ServedApiData['server'];
let workdir: string;

async function verify(args: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await runVerifyCommand(args, (l) => lines.push(l));
  return { code, lines };
}

beforeAll(() => {
  process.env.TOKENPACE_SECRET_KEY = SECRET;
});

useServedApiData({ now: NOW, days: 9, dump: true }, (s) => {
  ({ t, server } = s);
  resetSignerCache();
  workdir = fs.mkdtempSync(path.join(os.tmpdir(), 'tokenpace-verify-'));
});

afterAll(() => {
  if (workdir) fs.rmSync(workdir, { recursive: true, force: true });
});

describe('signed publications', () => {
  it('the README steps verify a board (header and embedded) and a dump with openssl', async () => {
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', readmeSteps('verify')], {
      cwd: workdir,
      env: { ...process.env, BASE: server.baseUrl },
      timeout: 120_000,
    });
    expect(stdout.match(/Signature Verified Successfully/g)).toHaveLength(3);
    // One changed byte in the kept board: openssl refuses.
    const board = fs.readFileSync(path.join(workdir, 'board.json'));
    board[20] = board[20]! ^ 0x01;
    fs.writeFileSync(path.join(workdir, 'board-changed.json'), board);
    await expect(
      run('openssl', ['pkeyutl', '-verify', '-pubin', '-inkey', 'key.pem', '-rawin', '-in', 'board-changed.json', '-sigfile', 'board.sig'], { cwd: workdir }),
    ).rejects.toThrow();
  });

  it('a snapshot is the board’s exact bytes with the same signatures, and tokenpace verify accepts it by URL and as a kept file', async () => {
    const res = await fetch(`${server.baseUrl}/api/v1/leaderboard?model=llama-4-maverick&window=24h`);
    const body = await res.text();
    const header = parseSignatureHeader(res.headers.get('tokenpace-signature'))!;
    expect(header.covers).toBe('body');
    const { snapshotId } = JSON.parse(body) as { snapshotId: string };
    const snap = await fetch(`${server.baseUrl}/api/v1/snapshots/${snapshotId}`);
    expect(await snap.text()).toBe(body);
    expect(snap.headers.get('tokenpace-signature')).toBe(res.headers.get('tokenpace-signature'));
    expect(snap.headers.get('access-control-expose-headers')).toContain('tokenpace-signature');

    const byUrl = await verify([`${server.baseUrl}/api/v1/snapshots/${snapshotId}`]);
    expect(byUrl.code).toBe(0);
    expect(byUrl.lines).toHaveLength(2);
    expect(byUrl.lines.every((l) => l.startsWith('ok'))).toBe(true);

    const kept = path.join(workdir, 'kept.json');
    const keys = path.join(workdir, 'keys-now.json');
    fs.writeFileSync(kept, body);
    fs.writeFileSync(keys, await (await fetch(`${server.baseUrl}/.well-known/tokenpace-keys.json`)).text());
    expect((await verify([kept, '--keys', keys])).code).toBe(0);
    // the header value saved beside the file verifies too
    expect((await verify([kept, '--keys', keys, '--signature', res.headers.get('tokenpace-signature')!])).lines.filter((l) => l.startsWith('ok'))).toHaveLength(
      2,
    );
    // one changed byte (a figure) fails
    fs.writeFileSync(
      kept,
      body.replace(/"samples":(\d)/, (_, d: string) => `"samples":${(Number(d) + 1) % 10}`),
    );
    const bad = await verify([kept, '--keys', keys]);
    expect(bad.code).toBe(1);
    expect(bad.lines[0]).toMatch(/^FAILED {2}embedded signature/);
    // a file without a signature is refused, not passed
    fs.writeFileSync(kept, extractEmbeddedSignature(body)!.signedText);
    expect((await verify([kept, '--keys', keys])).code).toBe(1);
  });

  it('a dump manifest is signed (embedded and header) and the file by its SHA-256', async () => {
    const dumps = (await (await fetch(`${server.baseUrl}/api/v1/dumps`)).json()) as { items: Array<{ id: number; sha256: string }> };
    const dump = dumps.items[0]!;
    const manifest = await verify([`${server.baseUrl}/api/v1/dumps/${dump.id}/manifest.json`]);
    expect(manifest.code).toBe(0);
    expect(manifest.lines).toHaveLength(2);
    const file = await verify([`${server.baseUrl}/api/v1/dumps/${dump.id}/measurements.csv.gz`]);
    expect(file.code).toBe(0);
    expect(file.lines[0]).toMatch(/over the SHA-256 of the file/);
    const m = JSON.parse(await (await fetch(`${server.baseUrl}/api/v1/dumps/${dump.id}/manifest.json`)).text()) as { sha256: string };
    expect(m.sha256).toBe(dump.sha256);
  });

  it('after a rotation the old snapshot still verifies (old key kept) and new answers carry the new key', async () => {
    const before = await fetch(`${server.baseUrl}/api/v1/leaderboard?model=llama-4-maverick&window=72h`);
    const oldBody = await before.text();
    const oldKeyId = parseSignatureHeader(before.headers.get('tokenpace-signature'))!.keyId;
    const rotated = await createSigningKey(t.db, Buffer.from(SECRET, 'hex'), { retireCurrent: true });
    expect(rotated.created).toBe(true);
    expect(rotated.id).not.toBe(oldKeyId);
    resetSignerCache();
    const keys = (await (await fetch(`${server.baseUrl}/.well-known/tokenpace-keys.json`)).json()) as {
      keys: Array<{ id: string; validUntil: string | null }>;
    };
    expect(keys.keys.map((k) => k.id)).toEqual([oldKeyId, rotated.id]);
    expect(keys.keys[0]!.validUntil).not.toBeNull();
    expect(keys.keys[1]!.validUntil).toBeNull();

    const kept = path.join(workdir, 'old.json');
    fs.writeFileSync(kept, oldBody);
    const old = await verify([kept, '--keys', `${server.baseUrl}/.well-known/tokenpace-keys.json`]);
    expect(old.code).toBe(0);
    expect(old.lines[0]).toContain(oldKeyId);

    const after = await fetch(`${server.baseUrl}/api/v1/leaderboard?model=llama-4-maverick&window=72h`);
    expect(parseSignatureHeader(after.headers.get('tokenpace-signature'))!.keyId).toBe(rotated.id);
    expect((await verify([`${server.baseUrl}/api/v1/leaderboard?model=llama-4-maverick&window=72h`])).code).toBe(0);
    // a second "first key" never replaces the current one
    expect((await createSigningKey(t.db, Buffer.from(SECRET, 'hex'), { retireCurrent: false })).id).toBe(rotated.id);
  });
});
