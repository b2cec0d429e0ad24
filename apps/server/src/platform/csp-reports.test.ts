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

  it('reads at most 20 reports of a batch and cuts long values', () => {
    const entry = {
      type: 'csp-violation',
      body: { documentURL: 'data:,x', effectiveDirective: 'y'.repeat(500), blockedURL: 'eval' },
    };

    const violations = violationsIn(Array.from({ length: 50 }, () => entry));

    expect(violations).toHaveLength(20);
    expect(violations[0]).toEqual({ page: 'data:', directive: 'y'.repeat(200), blocked: 'eval' });
  });
});
