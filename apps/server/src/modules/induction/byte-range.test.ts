import { describe, expect, it } from 'vitest';

import { parseByteRange } from './byte-range';

describe('parseByteRange', () => {
  it('reads the forms a video element sends', () => {
    expect(parseByteRange('bytes=0-', 1000)).toEqual({ start: 0, end: 999, openEnded: true });
    expect(parseByteRange('bytes=100-199', 1000)).toEqual({
      start: 100,
      end: 199,
      openEnded: false,
    });
    expect(parseByteRange('bytes=900-5000', 1000)).toEqual({
      start: 900,
      end: 999,
      openEnded: false,
    });
    expect(parseByteRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999, openEnded: false });
  });

  it('sends the whole file for no, several or malformed ranges', () => {
    expect(parseByteRange(undefined, 1000)).toBeUndefined();
    expect(parseByteRange('bytes=0-1,5-6', 1000)).toBeUndefined();
    expect(parseByteRange('items=0-1', 1000)).toBeUndefined();
    expect(parseByteRange('bytes=20-10', 1000)).toBeUndefined();
  });

  it('says when a range starts past the end', () => {
    expect(parseByteRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-0', 1000)).toBe('unsatisfiable');
  });
});
