import { describe, expect, it } from 'vitest';

import { areWeightsConsistent } from './weights';

// The bridge's resolution is 20 kg: these numbers are the requirement, not the constant, so a
// changed tolerance fails here.
describe('areWeightsConsistent', () => {
  it('accepts gross − tare = net and up to 20 kg either way', () => {
    for (const netWeight of [34_660, 34_680, 34_640]) {
      expect(areWeightsConsistent({ tareWeight: 15_220, grossWeight: 49_880, netWeight })).toBe(
        true,
      );
    }
  });

  it('flags weights 21 kg or more apart', () => {
    for (const netWeight of [34_681, 34_639, 36_660]) {
      expect(areWeightsConsistent({ tareWeight: 15_220, grossWeight: 49_880, netWeight })).toBe(
        false,
      );
    }
  });

  it('cannot tell when a weight is missing', () => {
    expect(
      areWeightsConsistent({ tareWeight: null, grossWeight: 49_880, netWeight: 34_660 }),
    ).toBeNull();
  });
});
