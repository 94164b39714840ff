import { renderToStaticMarkup } from 'react-dom/server';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { fmt, fmtRange, plural, SPEED_DIGITS } from './format';
import { EndpointStatusHint } from './empty-state';

describe('one precision for a median and its intervals (issue 23 item 9)', () => {
  it('a median of 1,000.7 sits beside 1,000.9–1,003.6, not 1,001–1,004', () => {
    expect(fmt(1000.7, SPEED_DIGITS)).toBe('1,000.7');
    expect(fmtRange(1000.94, 1003.61)).toBe('1,000.9–1,003.6');
    expect(fmtRange(12, 13.25, 0)).toBe('12–13');
    expect(fmtRange(null, 3)).toBe('–');
    expect(fmtRange(1, undefined)).toBe('–');
  });
});

describe('plurals (issue 23 low items)', () => {
  it('says 1 day, 1 check, 2 hours, 1,234 measurements', () => {
    expect(plural(1, 'day')).toBe('1 day');
    expect(plural(1, 'check')).toBe('1 check');
    expect(plural(2, 'hour')).toBe('2 hours');
    expect(plural(1234, 'measurement')).toBe('1,234 measurements');
  });
});

describe('public empty states speak to visitors (issue 23 item 12)', () => {
  it('an endpoint this site does not probe: no variable names, no restart instructions', () => {
    for (const status of ['inactive', 'paused', 'retired', 'active']) {
      const html = renderToStaticMarkup(createElement(EndpointStatusHint, { status }));
      expect(html).not.toMatch(/_API_KEY|restart|environment|tokenpace start/);
    }
    expect(renderToStaticMarkup(createElement(EndpointStatusHint, { status: 'inactive' }))).toContain('Not measured on this site yet');
  });
});
