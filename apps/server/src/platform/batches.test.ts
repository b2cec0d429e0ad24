import { describe, expect, it } from 'vitest';

import { drainInBatches } from './batches';

describe('drainInBatches', () => {
  it('fetches batch after batch until a short one, and counts what was done', async () => {
    const rows = Array.from({ length: 7 }, (_, i) => i);
    const sizes: number[] = [];

    const done = await drainInBatches({
      batch: 3,
      nextBatch: async (n) => {
        const next = rows.splice(0, n);
        sizes.push(next.length);
        return next;
      },
      handle: async () => true,
    });

    expect(done).toBe(7);
    expect(sizes).toEqual([3, 3, 1]);
  });

  it('stops when a whole batch did nothing (it would come back the same)', async () => {
    let fetches = 0;

    const done = await drainInBatches({
      batch: 2,
      nextBatch: async () => {
        fetches++;
        return ['stuck', 'stuck'];
      },
      handle: async () => false,
    });

    expect(done).toBe(0);
    expect(fetches).toBe(1);
  });

  it('goes on past a row that fails, then reports the failure', async () => {
    const rows = ['a', 'bad', 'c', 'd'];
    const handled: string[] = [];

    const run = drainInBatches({
      batch: 2,
      nextBatch: async (n) => rows.splice(0, n),
      handle: async (row) => {
        if (row === 'bad') throw new Error('storage down');
        handled.push(row);
        return true;
      },
    });

    await expect(run).rejects.toMatchObject({
      message: '1 row(s) failed (3 done); the first failure is the cause',
      cause: new Error('storage down'),
    });
    expect(handled).toEqual(['a', 'c', 'd']);
  });

  it('ends after maxRounds even if rows stay due', async () => {
    let fetches = 0;

    const done = await drainInBatches({
      batch: 1,
      maxRounds: 5,
      nextBatch: async () => {
        fetches++;
        return ['again'];
      },
      handle: async () => true,
    });

    expect(done).toBe(5);
    expect(fetches).toBe(5);
  });
});
