import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';

import type { CounterRule } from './rate-limits.store';

describe('rate-limit counters (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const store = () => t.modules.rateLimits.store;
  const window: CounterRule = { limit: 3, windowMs: 60_000 };
  const throttle: CounterRule = {
    limit: 2,
    windowMs: 15 * 60_000,
    backoff: { firstMs: 60_000, maxMs: 15 * 60_000 },
  };

  it('lets exactly the limit through of 50 concurrent hits', async () => {
    const key = t.unique('burst:');

    const hits = await Promise.all(
      Array.from({ length: 50 }, () => store().hit(key, { limit: 7, windowMs: 60_000 })),
    );

    expect(hits.filter((hit) => hit.allowed)).toHaveLength(7);
    expect(
      hits
        .filter((hit) => hit.allowed)
        .map((hit) => hit.hits)
        .sort((a, b) => a - b),
    ).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(hits.filter((hit) => !hit.allowed).every((hit) => hit.retryAfterSeconds > 0)).toBe(true);
  });

  it('blocks a plain limit until its window ends, then counts afresh', async () => {
    const key = t.unique('window:');
    for (let i = 0; i < 3; i++) expect((await store().hit(key, window)).allowed).toBe(true);

    const refused = await store().hit(key, window);
    t.clock.advanceMs(60_000);
    const again = await store().hit(key, window);

    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 60 });
    expect(again).toMatchObject({ allowed: true, hits: 1 });
  });

  it('locks for a minute at the limit and doubles with each further counted hit, up to fifteen minutes', async () => {
    const key = t.unique('lock:');
    await store().hit(key, throttle);
    const second = await store().hit(key, throttle);
    const locked = await store().hit(key, throttle);
    t.clock.advanceMs(60_000);
    await store().hit(key, throttle); // the third counted hit: two minutes
    const doubled = await store().hit(key, throttle);

    expect(second.allowed).toBe(true);
    expect(locked).toMatchObject({ allowed: false, retryAfterSeconds: 60 });
    expect(doubled).toMatchObject({ allowed: false, retryAfterSeconds: 120 });
  });

  it('never locks for more than fifteen minutes', async () => {
    const key = t.unique('cap:');
    const rule: CounterRule = { ...throttle, limit: 1, windowMs: 24 * 3_600_000 };
    let last = await store().hit(key, rule);
    for (let i = 0; i < 8; i++) {
      t.clock.advanceMs(15 * 60_000);
      await store().hit(key, rule);
      last = await store().hit(key, rule);
    }

    expect(last).toMatchObject({ allowed: false, retryAfterSeconds: 15 * 60 });
  });

  it('starts a new window once the old one is over', async () => {
    const key = t.unique('restart:');
    await store().hit(key, throttle);
    t.clock.advanceMs(15 * 60_000 + 1);

    expect(await store().hit(key, throttle)).toMatchObject({ allowed: true, hits: 1 });
  });

  it('gives a hit back and lifts the block when the count falls under the limit', async () => {
    const key = t.unique('refund:');
    await store().hit(key, throttle);
    await store().hit(key, throttle);
    expect((await store().hit(key, throttle)).allowed).toBe(false);

    await store().refund(key, throttle);

    expect(await store().hit(key, throttle)).toMatchObject({ allowed: true, hits: 2 });
  });

  it('deletes the rows whose window and block are over', async () => {
    const key = t.unique('expired:');
    await store().hit(key, window);
    t.clock.advanceMs(60_001);

    await store().deleteExpired();

    expect(await t.ownerQuery('select key from rate_limit_counters where key = $1', [key])).toEqual(
      [],
    );
  });
});
