/**
 * Region as a filter on pages: the leaderboard pickers offer "All regions (merged)" and each worker
 * region (none when nothing has measured), keep the chosen one, and the coverage line says which
 * regions an answer covers.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
import { LeaderboardPickers, regionField } from './pickers';
import { RegionCoverage } from './region-coverage';

const base = { models: [{ slug: 'm', name: 'M' }], workloads: [], model: 'm', workload: 'prose-1k', window: '72h', action: '/' };

it('offers all regions merged and each region, with the chosen one selected', () => {
  const html = renderToStaticMarkup(createElement(LeaderboardPickers, { ...base, regions: ['eu', 'us'], region: 'us' }));
  expect(html).toContain('name="region"');
  expect(html).toMatch(/<option value="">All regions \(merged\)<\/option>/);
  expect(html).toMatch(/<option value="eu">eu only<\/option>/);
  expect(html).toMatch(/<option value="us" selected="">us only<\/option>/);
  expect(renderToStaticMarkup(createElement(LeaderboardPickers, { ...base }))).not.toContain('name="region"');
  // A region asked for in the URL but not (yet) in the list stays selectable.
  expect(regionField(['eu'], 'ap')!.options.map((o) => o.value)).toEqual(['', 'eu', 'ap']);
  expect(regionField([], null)).toBeNull();
});

it('says which regions an answer covers', () => {
  const text = (a: { region: string | null; regions: string[]; merged: boolean }) => renderToStaticMarkup(createElement(RegionCoverage, { answer: a }));
  expect(text({ region: 'eu', regions: ['eu'], merged: false })).toContain('Probes from worker region eu only.');
  expect(text({ region: 'eu', regions: [], merged: false })).toContain('(none in this window)');
  expect(text({ region: null, regions: ['eu', 'us'], merged: true })).toContain('All worker regions merged: eu, us.');
  expect(text({ region: null, regions: ['local'], merged: true })).toContain('the only region that measured');
  expect(text({ region: null, regions: ['eu', 'us'], merged: true })).toContain('data-region-coverage="merged"');
});
