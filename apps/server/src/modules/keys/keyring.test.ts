import { randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import type { Database } from '@/platform/db';
import { masterKeyId, wrapKey } from '@/platform/sealing';

import { createKeyring } from './keyring';
import type { KeysRepository, TenantKeyRow } from './keys.repository';

const tenantId = '11111111-1111-4111-8111-111111111111';

/** The keyring's cache over a repository that counts its reads (the database is not the subject). */
function setup() {
  const master = randomBytes(32);
  const row = (purpose: TenantKeyRow['purpose'], version: number): TenantKeyRow => ({
    tenantId,
    purpose,
    version,
    state: 'active',
    wrappedKey: wrapKey(master, randomBytes(32), `${tenantId}:${purpose}:${version}`),
    masterKeyId: masterKeyId(master),
    createdAt: new Date(),
    retiredAt: null,
    closedToNodesAt: null,
  });
  const state = { rows: [row('data', 1), row('index', 1), row('audit', 1)], reads: 0, clock: 0 };
  const repository = {
    live: async () => {
      state.reads++;
      return state.rows;
    },
  } as unknown as KeysRepository;
  const database = {
    withTenantAside: (_tenant: string, work: (tx: never) => Promise<unknown>) => work({} as never),
  } as unknown as Pick<Database, 'withTenantAside'>;
  const keyring = createKeyring({
    database,
    repository,
    master,
    cacheMs: 1000,
    now: () => state.clock,
  });
  return { keyring, state, row };
}

describe('keyring cache', () => {
  it('reads a tenant’s keys once per period, refreshing ahead in its last quarter', async () => {
    const { keyring, state, row } = setup();

    expect((await keyring.forTenant(tenantId)).active.version).toBe(1);
    state.clock = 500;
    await keyring.forTenant(tenantId);
    expect(state.reads).toBe(1);

    // A rotation elsewhere: version 2 is active from now on.
    state.rows = [{ ...row('data', 1), state: 'retiring' }, row('data', 2), ...state.rows.slice(1)];
    state.clock = 800; // last quarter: the cached keys answer, a refresh starts behind them
    expect((await keyring.forTenant(tenantId)).active.version).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(state.reads).toBe(2);
    expect((await keyring.forTenant(tenantId)).active.version).toBe(2);
    const old = (await keyring.forTenant(tenantId)).lookup(1);
    expect(old).toBeInstanceOf(Buffer);
  });

  it('never uses keys past their period: an idle tenant waits for a fresh read', async () => {
    const { keyring, state, row } = setup();
    await keyring.forTenant(tenantId);
    state.rows = [row('data', 5), ...state.rows.slice(1)];
    state.clock = 1000;

    expect((await keyring.forTenant(tenantId)).active.version).toBe(5);
    expect(state.reads).toBe(2);
  });
});
