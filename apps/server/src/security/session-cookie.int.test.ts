import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';

// Behind a TLS-terminating proxy (TRUST_PROXY=1, X-Forwarded-Proto: https) as in production.
describe('the session cookie (SEC-18, SEC-19)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(() => t.close());

  const register = (proto: 'https' | 'http') =>
    t.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'x-forwarded-proto': proto },
      payload: {
        organizationName: t.unique('Org '),
        fullName: 'Cookie Test',
        username: t.unique('cookie'),
        password: 'correct-horse-1',
      },
    });

  it('is __Host- prefixed, Secure, HttpOnly, SameSite=Lax, Path=/ and has no Domain over HTTPS', async () => {
    const response = await register('https');

    const header = String(response.headers['set-cookie']);
    expect(response.statusCode).toBe(201);
    expect(header).toMatch(/^__Host-bg_session=[A-Za-z0-9_-]{43};/);
    expect(header).toMatch(/; Secure/);
    expect(header).toMatch(/; HttpOnly/);
    expect(header).toMatch(/; SameSite=Lax/);
    expect(header).toMatch(/; Path=\//);
    expect(header).not.toMatch(/Domain=/i);
  });

  it('works over plain HTTP for local use, still HttpOnly, without the prefix browsers would refuse', async () => {
    const response = await register('http');

    const header = String(response.headers['set-cookie']);
    expect(header).toMatch(/^bg_session=[A-Za-z0-9_-]{43};/);
    expect(header).toMatch(/; HttpOnly/);
    expect(header).not.toMatch(/; Secure/);
  });

  it('stores only a hash of the 256-bit token, with its user and tenant', async () => {
    const response = await register('https');
    const token =
      /__Host-bg_session=([^;]+)/.exec(String(response.headers['set-cookie']))?.[1] ?? '';
    const { user, tenant } = response.json<{ user: { id: string }; tenant: { id: string } }>();

    const rows = await t.ownerQuery<Record<string, unknown>>(
      'select * from sessions where user_id = $1',
      [user.id],
    );

    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tenant_id: tenant.id, user_id: user.id });
    expect(JSON.stringify(rows)).not.toContain(token);
  });
});
