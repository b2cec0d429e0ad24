import { describe, expect, it } from 'vitest';

import { scaleEntriesFrom } from './scale-database';

describe('scaleEntriesFrom (seed:scale --entries, issue 27)', () => {
  it("is today's 1,000,000 when neither the option nor SCALE_ENTRIES is given", () => {
    expect(scaleEntriesFrom([], {})).toBe(1_000_000);
    expect(scaleEntriesFrom([], { SCALE_ENTRIES: '' })).toBe(1_000_000);
  });

  it('reads --entries before SCALE_ENTRIES, with _ or , as thousands separators', () => {
    expect(scaleEntriesFrom(['--entries', '10_000_000'], { SCALE_ENTRIES: '5' })).toBe(10_000_000);
    expect(scaleEntriesFrom([], { SCALE_ENTRIES: '2,500,000' })).toBe(2_500_000);
  });

  it('refuses a count that is not a whole number in range, naming it', () => {
    expect(() => scaleEntriesFrom(['--entries', 'ten'], {})).toThrow(/not ten/);
    expect(() => scaleEntriesFrom([], { SCALE_ENTRIES: '1e9' })).toThrow(/1e9/);
    expect(() => scaleEntriesFrom([], { SCALE_ENTRIES: '999' })).toThrow(/from 1000/);
  });
});
