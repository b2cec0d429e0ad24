import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { newUuidV7 } from './ids';

describe('newUuidV7', () => {
  it('makes RFC 9562 version 7 UUIDs carrying the time', () => {
    const id = newUuidV7(Date.UTC(2026, 10, 27, 13, 0, 0));

    expect(z.uuid({ version: 'v7' }).safeParse(id).success).toBe(true);
    expect(Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16)).toBe(
      Date.UTC(2026, 10, 27, 13, 0, 0),
    );
  });

  it('keeps ids made in the same millisecond (or with the clock stepping back) in order', () => {
    const at = Date.UTC(2030, 0, 1);
    const ids = [newUuidV7(at), newUuidV7(at), newUuidV7(at - 5_000), newUuidV7(at)];

    expect(new Set(ids).size).toBe(4);
    expect([...ids].sort()).toEqual(ids);
  });
});
