import { describe, expect, it } from 'vitest';

import { violationsIn } from './csp-reports';

describe('violationsIn', () => {
  it('finds nothing in bodies of another shape', () => {
    for (const body of [
      null,
      'x',
      42,
      {},
      { 'csp-report': 'x' },
      [],
      [null, 1, { type: 'csp-violation' }],
    ]) {
      expect(violationsIn(body)).toEqual([]);
    }
  });

  it('reads at most 5 distinct reports of a batch and cuts long values', () => {
    const entry = (directive: string) => ({
      type: 'csp-violation',
      body: { documentURL: 'data:,x', effectiveDirective: directive, blockedURL: 'eval' },
    });

    const repeated = violationsIn(Array.from({ length: 50 }, () => entry('y'.repeat(500))));
    const varied = violationsIn(Array.from({ length: 50 }, (_, i) => entry(`d${i}`)));

    expect(repeated).toEqual([{ page: 'data:', directive: 'y'.repeat(200), blocked: 'eval' }]);
    expect(varied.map((v) => v.directive)).toEqual(['d0', 'd1', 'd2', 'd3', 'd4']);
  });

  it('redacts runs of digits, spaced or not, such as ID numbers', () => {
    const [violation] = violationsIn({
      'csp-report': { 'document-uri': 'ID 800101 5009 087', 'effective-directive': 'img-src' },
    });

    expect(violation!.page).toBe('ID [redacted]');
  });
});
