import { describe, expect, it } from 'vitest';

import { decodeCursor, encodeCursor } from './page-cursor';

describe('page cursors', () => {
  it('round-trip a timestamp and id', () => {
    const cursor = {
      timestamp: new Date('2026-11-22T08:00:00.123Z'),
      id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    };

    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  });

  it('reject anything else', () => {
    expect(decodeCursor('not-a-cursor')).toBeUndefined();
    expect(
      decodeCursor(Buffer.from('2026-11-22T08:00:00Z|x; drop table').toString('base64url')),
    ).toBeUndefined();
    const made = (text: string) => Buffer.from(text).toString('base64url');
    expect(decodeCursor(made(`2026-11-22T08:00:00Z|${'-'.repeat(36)}`))).toBeUndefined();
    expect(
      decodeCursor(made('+275760-09-13T00:00:00Z|7c9e6679-7425-40de-944b-e07fc1f90ae7')),
    ).toBeUndefined();
  });
});
