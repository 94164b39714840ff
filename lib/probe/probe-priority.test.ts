import { spawn, spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROBE_NICE, parseProbeNice, readAutogroupNice, REFERENCE_NICE_BELOW_PROBE, referenceNiceFor } from './probe-priority';

describe('probe priority (decision 184)', () => {
  it('parses the setting at its edges and names the variable on bad input', () => {
    expect(parseProbeNice(undefined)).toBe(DEFAULT_PROBE_NICE);
    expect(parseProbeNice('off')).toBeNull();
    expect(parseProbeNice('-20')).toBe(-20);
    expect(parseProbeNice('19')).toBe(19);
    expect(() => parseProbeNice('-21')).toThrow(/TOKENPACE_PROBE_NICE/);
    expect(() => parseProbeNice('20')).toThrow(/TOKENPACE_PROBE_NICE/);
    expect(() => parseProbeNice('1.5')).toThrow(/TOKENPACE_PROBE_NICE/);
  });

  // A real child process, so this test never changes the test runner's own priority.
  const runChild = (env: Record<string, string>) => {
    const script = `const { raiseProbePriority } = require(${JSON.stringify(path.join(import.meta.dirname, 'probe-priority.ts'))}); const os = require('node:os'); const r = raiseProbePriority(); console.log(JSON.stringify({ ...r, after: os.getPriority() }));`;
    const out = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { env: { ...process.env, ...env }, encoding: 'utf8' });
    expect(out.status, out.stderr).toBe(0);
    return JSON.parse(out.stdout.trim()) as { nice: number; autogroupNice: number | null; raised: boolean; note: string | null; after: number };
  };

  it('lowers the nice value when allowed, or says why not; never raises it', () => {
    const base = os.getPriority();
    const target = Math.max(-20, base - 1);
    const r = runChild({ TOKENPACE_PROBE_NICE: String(target) });
    if (r.raised) expect(r.after).toBe(target);
    else expect(r.note).toMatch(/could not lower nice/);
    // asking for a higher nice than the current one leaves it as it is
    const higher = runChild({ TOKENPACE_PROBE_NICE: String(Math.min(19, base + 5)) });
    expect(higher).toMatchObject({ raised: false, after: base });
    expect(runChild({ TOKENPACE_PROBE_NICE: 'off' })).toMatchObject({ raised: false, after: base });
  });

  it("touches the session's autogroup only when the process leads its own session", async () => {
    const ours = readAutogroupNice();
    // not a session leader: its autogroup is ours, and stays as it was
    expect(runChild({ TOKENPACE_PROBE_NICE: '-5' }).autogroupNice).toBe(ours);
    expect(readAutogroupNice()).toBe(ours);
    if (ours === null) return; // no autogroup scheduling on this kernel: nothing more to see
    // a session leader (detached, as bin/tokenpace.mjs starts `probe`) sets its own group
    const script = `const { raiseProbePriority } = require(${JSON.stringify(path.join(import.meta.dirname, 'probe-priority.ts'))}); console.log(JSON.stringify(raiseProbePriority('-5')));`;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise((r) => child.on('exit', r));
    const r = JSON.parse(out.trim()) as { autogroupNice: number | null; note: string | null };
    if (r.note === null) expect(r.autogroupNice).toBe(-5);
    else expect(r.note).toMatch(/could not lower/);
    expect(readAutogroupNice()).toBe(ours);
  });
});

describe('referenceNiceFor (decision 304)', () => {
  it('puts the calibration reference server 5 below the probe, never below −20, and leaves it when the probe is left', () => {
    expect(REFERENCE_NICE_BELOW_PROBE).toBe(5);
    expect(referenceNiceFor(DEFAULT_PROBE_NICE)).toBe(-15);
    expect(referenceNiceFor(0)).toBe(-5);
    expect(referenceNiceFor(19)).toBe(14);
    expect(referenceNiceFor(-15)).toBe(-20);
    expect(referenceNiceFor(-16)).toBe(-20);
    expect(referenceNiceFor(-20)).toBe(-20);
    expect(referenceNiceFor(null)).toBeNull();
    expect(referenceNiceFor(parseProbeNice('off'))).toBeNull();
  });

  it('the reference-server command takes TOKENPACE_REFERENCE_NICE before it listens (a real child process)', async () => {
    const base = os.getPriority();
    const target = Math.max(-20, base - 3);
    const root = path.resolve(import.meta.dirname, '..', '..');
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'reference-server', '--port', '0', '--tps', '1000', '--ttft-ms', '10'], {
      cwd: root,
      env: { ...process.env, TOKENPACE_REFERENCE_NICE: String(target) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('listening')) resolve();
        });
        child.on('exit', (code) => reject(new Error(`reference server exited with ${code}: ${out}`)));
      });
      if (out.includes('could not lower')) expect(os.getPriority(child.pid!)).toBe(base);
      else expect(os.getPriority(child.pid!)).toBe(target);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
