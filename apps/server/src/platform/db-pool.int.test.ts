import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';

import { createDatabase } from './db';

/**
 * Issue 27: the pool's kept connections are opened before requests need them and stay open
 * however idle (a connection opened under load made the requests behind it wait).
 */
describe('the pool', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp();
    url = (t.database.pool as unknown as { options: { connectionString: string } }).options
      .connectionString;
  });
  afterAll(() => t.close());

  it('opens poolMin connections on warm() and answers on them', async () => {
    const database = createDatabase({ url, poolMax: 5, poolMin: 3 });
    try {
      expect(database.pool.totalCount).toBe(0);
      await database.warm();
      expect(database.pool.totalCount).toBe(3);
      expect(database.pool.idleCount).toBe(3);
      // Warm again: nothing more to open.
      await database.warm();
      expect(database.pool.totalCount).toBe(3);
    } finally {
      await database.close();
    }
  });

  it('opens nothing without a poolMin, and never more than poolMax', async () => {
    const none = createDatabase({ url, poolMax: 5 });
    const capped = createDatabase({ url, poolMax: 2, poolMin: 6 });
    try {
      await none.warm();
      expect(none.pool.totalCount).toBe(0);
      await capped.warm();
      expect(capped.pool.totalCount).toBe(2);
    } finally {
      await Promise.all([none.close(), capped.close()]);
    }
  });
});
