import { describe, expect, it } from 'vitest';

import { areWeightsConsistent } from './weights';

describe('areWeightsConsistent', () => {
  it('accepts gross − tare = net and small rounding', () => {
    expect(
      areWeightsConsistent({ tareWeight: 15_220, grossWeight: 49_880, netWeight: 34_660 }),
    ).toBe(true);
    expect(
      areWeightsConsistent({ tareWeight: 15_220, grossWeight: 49_880, netWeight: 34_680 }),
    ).toBe(true);
  });

  it('flags weights that do not add up', () => {
    expect(
      areWeightsConsistent({ tareWeight: 15_220, grossWeight: 49_880, netWeight: 36_660 }),
    ).toBe(false);
  });

  it('cannot tell when a weight is missing', () => {
    expect(
      areWeightsConsistent({ tareWeight: null, grossWeight: 49_880, netWeight: 34_660 }),
    ).toBeNull();
  });
});
