import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Database, createDatabase } from '@/platform/db';
import { type TestApp, createTestApp } from '@/testing/test-app';

import { upsertUser } from './provision';

describe('npm run admin -- create-super-admin on an existing account', () => {
  let t: TestApp;
  let operator: Database;
  beforeAll(async () => {
    t = await createTestApp();
    operator = createDatabase({ url: t.ownerUrl, poolMax: 1 });
  });
  afterAll(async () => {
    await operator.close();
    await t.close();
  });

  it('resets the password and removes the second factors, so a locked-out admin can enrol again', async () => {
    const admin = await t.registerTenant();
    const setup = await admin.post('/api/auth/mfa/totp/setup', {});
    const secret = Secret.fromBase32(setup.json<{ secret: string }>().secret);
    const code = TOTP.generate({ secret, timestamp: t.clock.now().getTime() });
    expect((await admin.post('/api/auth/mfa/totp/confirm', { code })).statusCode).toBe(200);

    const outcome = await upsertUser(operator, {
      tenantId: admin.body.tenant.id,
      username: admin.body.user.username,
      password: 'operator-set-9',
      fullName: 'Thandi Admin',
      role: 'super_admin',
    });

    expect(outcome).toBe('updated');
    for (const table of ['mfa_totp', 'mfa_recovery_codes', 'mfa_passkeys']) {
      expect(
        await t.ownerQuery(`select 1 from ${table} where user_id = $1`, [admin.body.user.id]),
      ).toEqual([]);
    }
    const login = await t.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: admin.body.user.username, password: 'operator-set-9' },
    });
    expect(login.json()).toMatchObject({
      user: { role: 'super_admin' },
      requireMfaEnrolment: true,
    });
  });
});
