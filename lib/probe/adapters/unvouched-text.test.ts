/**
 * Text the probe cannot vouch for is unrecognised, never a number (decision 318): every attack
 * body of lib/probe/test-support/unvouched-bodies.ts is refused with exactly its paths (or its
 * stated failure), and every honest neighbour at the edge of a rule stays a rankable success with
 * its answer. Parsed through the real decoders and buildProbeResult, one read per event.
 */
import { describe, expect, it } from 'vitest';
import { buildProbeResult } from '../build-probe-result';
import { parseStream } from '../parse-stream';
import { ANSWER, ATTACK_BODIES, HONEST_BODIES, type UnvouchedBody } from '../test-support/unvouched-bodies';
import type { ProbeResult } from '../types';

/** Parses a body, one read per event, 40 ms apart (a paced stream). */
async function parse(body: UnvouchedBody): Promise<ProbeResult> {
  async function* chunks() {
    for (const e of body.events) yield typeof e === 'string' ? Buffer.from(e, 'utf8') : e;
  }
  let now = 60;
  const parsed = await parseStream(body.protocol, chunks(), () => (now += 40));
  return buildProbeResult(parsed, {
    protocol: body.protocol,
    httpStatus: 200,
    ttfbMs: 0,
    connectMs: null,
    abort: null,
    toolsDeclared: body.toolsDeclared === true,
  });
}

describe('honest neighbours stay rankable', () => {
  it.each(HONEST_BODIES.map((b) => [b.label, b] as const))('%s', async (_label, body) => {
    const r = await parse(body);
    expect({ outcome: r.outcome, reasons: r.notRankableReasons, paths: r.evidence.unrecognizedPaths }).toEqual({
      outcome: 'success',
      reasons: [],
      paths: undefined,
    });
    expect(r.answerText).toBe(body.answer ?? ANSWER);
    expect(r.rankable).toBe(true);
  });
});

describe('attacks are refused', () => {
  it.each(ATTACK_BODIES.map((b) => [`${b.rule}: ${b.label}`, b] as const))('%s', async (_label, body) => {
    const r = await parse(body);
    expect(r.rankable).toBe(false);
    if (body.failed !== undefined) {
      expect({ outcome: r.outcome, message: r.errorMessage, reasons: r.notRankableReasons }).toEqual({
        outcome: 'error',
        message: body.failed,
        reasons: ['failed'],
      });
    } else {
      // other reasons may follow from the same text (a count that no longer agrees): the shape is the one asserted
      expect({ outcome: r.outcome, unrecognized: r.notRankableReasons.includes('unrecognized_shape'), paths: r.evidence.unrecognizedPaths }).toEqual({
        outcome: 'success',
        unrecognized: true,
        paths: body.paths,
      });
    }
  });
});
