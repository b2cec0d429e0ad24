import { randomBytes } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { passesLuhn } from '@boomgate/contracts/sa-id-number';

import { loadRootKey } from '@/platform/root-key';
import { type TestApp, createTestApp } from '@/testing/test-app';
import { aTenantWithSecret, sendEntry } from '@/testing/webhooks';

function saId(): string {
  const twelve = `750303${String(Math.floor(Math.random() * 1e4)).padStart(4, '0')}08`;
  const check = [...'0123456789'].find((digit) => passesLuhn(`${twelve}${digit}`)) ?? '0';
  return `${twelve}${check}`;
}

/**
 * Issue 26: a master-key rotation (ENCRYPTION_KEY new, ENCRYPTION_KEY_PREVIOUS old) keeps every
 * secret and derived key: integration secrets, VAPID keys, hashes and the tenants' sealed data.
 * Three processes on one database, as three deployments in turn: the old master, the new one
 * beside the old, and the new one alone.
 */
describe('master-key rotation covers the root key and everything derived from it', () => {
  let old: TestApp;
  const newMaster = randomBytes(32);
  beforeAll(async () => {
    old = await createTestApp();
  });
  afterAll(() => old.close());
  const sameDatabase = (encryptionKey: Buffer) => ({
    databaseName: old.databaseName,
    secrets: { sessionSecret: old.secrets.sessionSecret, encryptionKey },
  });

  it('opens every secret after rotation and after ENCRYPTION_KEY_PREVIOUS is removed', async () => {
    let rotated: TestApp | undefined;
    let alone: TestApp | undefined;
    try {
      // Written under the old master: an integration secret, a VAPID key, a sealed driver.
      const tenant = await aTenantWithSecret(old);
      const session = await old.login(tenant.admin.body.user.username, tenant.admin.password);
      const pushKey = (await session.get('/api/alerts/push-key')).json<{ publicKey: string }>();
      const idNumber = saId();
      const created = await session.post('/api/onboarding/drivers', {
        name: 'Naledi',
        surname: 'Khumalo',
        idNumber,
      });
      expect(created.statusCode, created.body).toBe(201);
      await sendEntry(old, tenant, { plateNumber: 'CA1111', referenceNumber: 'R-1' });

      // The new master, the old one beside it: the root key is re-wrapped at start.
      rotated = await createTestApp({
        sameDatabaseAs: sameDatabase(newMaster),
        env: { ENCRYPTION_KEY_PREVIOUS: old.secrets.encryptionKey.toString('base64url') },
      });
      // What the keys.rewrap-master job (every 15 minutes) does: the tenants' keys.
      expect(await rotated.modules.keys.service.rewrapAll()).toEqual({ rewrapped: 3, failed: 0 });
      const wrapped = await rotated.ownerQuery<{ master_key_id: string }>(
        `select master_key_id from platform_keys
         union all select master_key_id from tenant_keys where tenant_id = $1`,
        [tenant.tenantId],
      );
      expect(new Set(wrapped.map((row) => row.master_key_id)).size).toBe(1);
      expect(wrapped[0]?.master_key_id).toBe(rotated.modules.keys.keyring.masterKeyId);
      await rotated.close();
      rotated = undefined;

      // The new master alone.
      alone = await createTestApp({ sameDatabaseAs: sameDatabase(newMaster) });
      // The integration secret still verifies a signed post (the secret box opens it).
      expect(
        await sendEntry(alone, tenant, { plateNumber: 'CA2222', referenceNumber: 'R-2' }),
      ).toMatch(/^[0-9a-f-]{36}$/);
      const again = await alone.login(tenant.admin.body.user.username, tenant.admin.password);
      // Derived keys are the same: the browser's push subscription stays valid.
      expect((await again.get('/api/alerts/push-key')).json()).toEqual(pushKey);
      // The tenant's sealed data opens.
      const listed = (await again.get('/api/drivers')).json<{ idNumber: string }[]>();
      expect(listed.map((driver) => driver.idNumber)).toEqual([idNumber]);
    } finally {
      await rotated?.close();
      await alone?.close();
    }
  });

  it('refuses to start with a new master key when the old one is not given', async () => {
    await expect(loadRootKey({ ownerUrl: old.ownerUrl, master: randomBytes(32) })).rejects.toThrow(
      /ENCRYPTION_KEY_PREVIOUS/,
    );
  });
});
