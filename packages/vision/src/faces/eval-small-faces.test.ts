import { describe, expect, it } from 'vitest';

import { smallFaceTable } from './eval-small-faces';

describe('smallFaceTable', () => {
  it('reports found counts, mean / max distances and the nearest other person per size', () => {
    const [, , found, missing] = smallFaceTable([
      {
        fraction: 0.02,
        faces: 3,
        found: 2,
        samePhoto: [0.1, 0.2],
        genuine: [0.4, 0.5],
        nearestOther: [0.8, 0.7],
        ms: [900, 1100],
      },
      {
        fraction: 0.01,
        faces: 3,
        found: 0,
        samePhoto: [],
        genuine: [],
        nearestOther: [],
        ms: [],
      },
    ]);
    expect(found).toBe('| 2.0 % (80 px) | 2/3 | 0.150 / 0.200 | 0.450 / 0.500 | 0.700 | 1100 ms |');
    expect(missing).toBe('| 1.0 % (40 px) | 0/3 | - | - | - | - |');
  });
});
