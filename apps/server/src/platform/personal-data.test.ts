import { describe, expect, it } from 'vitest';

import { maskIdentifier } from './personal-data';

describe('maskIdentifier', () => {
  it('keeps the last four characters and the length', () => {
    expect(maskIdentifier('8001015009087')).toBe('*********9087');
    expect(maskIdentifier('A1234567')).toBe('****4567');
  });

  it('shows less of short values, none of four characters or fewer, and passes null through', () => {
    expect(maskIdentifier('AB12345')).toBe('*****45');
    expect(maskIdentifier('AB123')).toBe('***23');
    expect(maskIdentifier('1234')).toBe('****');
    expect(maskIdentifier('')).toBe('');
    expect(maskIdentifier(null)).toBeNull();
  });
});
