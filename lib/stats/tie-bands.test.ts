import { describe, expect, it } from 'vitest';
import { rankWithTieBands } from './tie-bands';

describe('rankWithTieBands', () => {
  it('overlapping intervals share a band; competition ranking 1, 1, 3', () => {
    const r = rankWithTieBands(
      [
        { id: 'c', median: 300, low: 290, high: 310 },
        { id: 'a', median: 1000, low: 950, high: 1050 },
        { id: 'b', median: 980, low: 940, high: 1000 },
      ],
      'higher-better',
    );
    expect(r).toEqual([
      { id: 'a', rank: 1, band: 1, tiedWith: ['b'] },
      { id: 'b', rank: 1, band: 1, tiedWith: ['a'] },
      { id: 'c', rank: 3, band: 2, tiedWith: [] },
    ]);
  });
  it('bands are anchored on the leader: a chain of overlaps does not tie the ends', () => {
    // A [95,105] ~ B [88,98] ~ C [82,91]; C does not overlap A → C starts band 2
    const r = rankWithTieBands(
      [
        { id: 'A', median: 100, low: 95, high: 105 },
        { id: 'B', median: 93, low: 88, high: 98 },
        { id: 'C', median: 86, low: 82, high: 91 },
        { id: 'D', median: 80, low: 70, high: 90 },
      ],
      'higher-better',
    );
    expect(r.map((x) => [x.id, x.rank, x.band])).toEqual([
      ['A', 1, 1],
      ['B', 1, 1],
      ['C', 3, 2],
      ['D', 3, 2],
    ]);
    expect(r[2]!.tiedWith).toEqual(['D']);
  });
  it('lower-better sorts ascending (latencies)', () => {
    const r = rankWithTieBands(
      [
        { id: 1, median: 500, low: 450, high: 550 },
        { id: 2, median: 200, low: 180, high: 220 },
        { id: 3, median: 210, low: 200, high: 260 },
      ],
      'lower-better',
    );
    expect(r.map((x) => [x.id, x.rank])).toEqual([
      [2, 1],
      [3, 1],
      [1, 3],
    ]);
  });
  it('touching intervals overlap; disjoint ones give 1, 2, 3; equal medians keep input order', () => {
    /** Ranks point-or-interval entries `[id, median, low, high]`, higher better. */
    const rank = (entries: Array<[string, number, number, number]>) =>
      rankWithTieBands(
        entries.map(([id, median, low, high]) => ({ id, median, low, high })),
        'higher-better',
      );
    expect(
      rank([
        ['x', 10, 9, 11],
        ['y', 8, 7, 9],
      ]).map((e) => e.rank),
    ).toEqual([1, 1]);
    expect(
      rank([
        ['p', 1, 1, 1],
        ['q', 3, 3, 3],
        ['r', 2, 2, 2],
      ]).map((e) => [e.id, e.rank, e.band]),
    ).toEqual([
      ['q', 1, 1],
      ['r', 2, 2],
      ['p', 3, 3],
    ]);
    expect(
      rank([
        ['first', 5, 5, 5],
        ['second', 5, 5, 5],
      ]).map((e) => e.id),
    ).toEqual(['first', 'second']);
  });
  it('empty input gives empty output; invalid entries throw', () => {
    expect(rankWithTieBands([], 'higher-better')).toEqual([]);
    expect(() => rankWithTieBands([{ id: 1, median: 5, low: 6, high: 7 }], 'higher-better')).toThrow(RangeError);
    expect(() => rankWithTieBands([{ id: 1, median: Number.NaN, low: 0, high: 7 }], 'higher-better')).toThrow(RangeError);
    expect(() => rankWithTieBands([], 'sideways' as never)).toThrow(RangeError);
  });
});
