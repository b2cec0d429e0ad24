import { describe, expect, it } from 'vitest';

import { fitsTimeBox } from './schedule';

describe('npm run bench time-box', () => {
  it('starts a first run whenever the minimum is left', () => {
    expect(fitsTimeBox(31_000, [])).toEqual({ fits: true, neededMs: 30_000 });
    expect(fitsTimeBox(29_000, []).fits).toBe(false);
  });

  it('starts another run only when the shortest run so far fits, with 10 % to spare', () => {
    // scale: a full first run (330 s), then paced-only runs (170 s).
    expect(fitsTimeBox(200_000, [330]).fits).toBe(false);
    expect(fitsTimeBox(200_000, [330, 170])).toEqual({ fits: true, neededMs: 187_000 });
    expect(fitsTimeBox(180_000, [330, 170]).fits).toBe(false);
  });
});
