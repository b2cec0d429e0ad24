import { expect } from 'vitest';

import type { TestApp } from './test-app';

/**
 * Whether a backend of the test's database comes to wait on a lock as `condition` (SQL on
 * pg_stat_activity) says: true once one does, false once `unless` has settled first (it did not
 * wait). Polls every 20 ms, failing the test after about 10 s: for tests that pause one
 * transaction to see another wait for it.
 */
export async function someoneWaits(
  t: Pick<TestApp, 'ownerQuery'>,
  condition: string,
  unless?: Promise<unknown>,
): Promise<boolean> {
  let settled = false;
  void unless?.finally(() => (settled = true)).catch(() => undefined);
  for (let tries = 0; !settled; tries++) {
    const [row] = await t.ownerQuery<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()
          and wait_event_type = 'Lock' and ${condition}`,
    );
    if (row!.n > 0) return true;
    expect(tries).toBeLessThan(500);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}
