import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loggerOptions } from '@/platform/logger';
import { aJpegDataUrl } from '@/testing/images';
import { type TestApp, createTestApp } from '@/testing/test-app';
import { aTenantWithSecret, postIncoming, signedHeaders } from '@/testing/webhooks';

type LogLine = Record<string, unknown> & { msg?: string; reqId?: string; time?: number };

describe('what reaches the logs (SEC-50, SEC-51, SEC-52)', () => {
  let t: TestApp;
  const secrets: string[] = [];
  let parsed: LogLine[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    const jpeg = await aJpegDataUrl({ color: '#a47' });
    const imageBase64 = jpeg.split(',')[1] ?? '';
    const idNumber = '8001015009087';
    const licenceId = '9202204720082';
    const passportNumber = 'A09876543';

    // Sign-up, sign-in (good and bad), a password change, an admin-set password and a reset.
    const { admin, secret } = await aTenantWithSecret(t);
    const failed = await t.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: admin.body.user.username, password: 'wrong-Secret-77' },
    });
    const signedIn = await t.login(admin.body.user.username, admin.password);
    const guard = await t.createSignedInUser(admin, 'security_guard', 'admin-set-Pass-3');
    const colleague = await t.createSignedInUser(admin, 'back_office');
    const reset = await admin.patch(`/api/users/${colleague.body.user.id}`, {
      password: 'reset-Pass-4',
    });
    // Documents with personal numbers and images, a gate entry, a signed inbound webhook.
    const saved = await Promise.all([
      guard.post('/api/identity-document', {
        identityNumber: idNumber,
        surname: 'Dlamini',
        sourceImageFront: jpeg,
      }),
      guard.post('/api/drivers-licence', { idNumber: licenceId, sourceImageFront: jpeg }),
      guard.post('/api/passport', { passportNumber, passportImage: jpeg }),
      guard.post('/api/auto-gate/grant-entry', {
        plateNumber: 'CA123456',
        driverIdNumber: idNumber,
        driverFaceImage: jpeg,
      }),
    ]);
    const body = JSON.stringify({ plateNumber: 'CA123456', driverIdNumber: idNumber });
    const headers = signedHeaders(secret, body, { at: t.clock.now() });
    const incoming = await postIncoming(t, admin.body.tenant.id, body, headers);
    const badSignature = await postIncoming(t, admin.body.tenant.id, body, {
      ...headers,
      'webhook-signature': 'v1,AAAA',
    });
    // The data-subject routes take the ID number in the body, which is never logged.
    const exported = await admin.post('/api/data-subjects/export', { idNumber });
    // A username built to forge a second log line.
    await t.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'evil\r\n{"level":60,"msg":"forged"}', password: 'x' },
    });
    await signedIn.post('/api/auth/logout', {});

    expect([
      failed.statusCode,
      reset.statusCode,
      incoming.statusCode,
      badSignature.statusCode,
    ]).toEqual([401, 200, 202, 401]);
    expect(saved.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    expect(exported.statusCode).toBe(200);
    secrets.push(
      admin.password,
      'wrong-Secret-77',
      'admin-set-Pass-3',
      'own-pass-22', // the guard's own password after the forced change
      'reset-Pass-4',
      ...[admin, signedIn, guard, colleague].map((s) => s.cookie.split('=')[1] ?? ''),
      idNumber,
      licenceId,
      passportNumber,
      imageBase64.slice(0, 40),
      imageBase64.slice(-40),
      secret,
      secret.replace(/^whsec_/, ''),
      headers['webhook-signature'].replace(/^v1,/, ''),
    );
    parsed = t.logLines.map((line) => JSON.parse(line) as LogLine);
  });
  afterAll(() => t.close());

  it('never contains a password, session token, ID, licence or passport number, image or secret', () => {
    const everything = t.logLines.join('');

    expect(t.logLines.length).toBeGreaterThan(20);
    expect(secrets.filter((secret) => secret.length > 0 && everything.includes(secret))).toEqual(
      [],
    );
    expect(everything).not.toMatch(/data:image\//);
  });

  it('writes one JSON object per line, whatever a username contains', () => {
    for (const line of t.logLines) {
      expect(line.endsWith('\n')).toBe(true);
      expect(line.slice(0, -1)).not.toMatch(/[\r\n]/);
    }
    expect(parsed.filter((line) => line.msg === 'forged')).toEqual([]);
  });

  it('records sign-in events with time, request id, user and tenant', () => {
    const success = parsed.find((line) => line.event === 'auth.login');
    const failure = parsed.find((line) => line.event === 'auth.login_failed');
    const request = parsed.find(
      (line) => line.reqId === success?.reqId && line.msg === 'incoming request',
    );

    expect(success).toMatchObject({
      tenantId: expect.any(String),
      userId: expect.any(String),
      reqId: expect.any(String),
      time: expect.any(Number),
    });
    expect(Math.abs((success?.time ?? 0) - Date.now())).toBeLessThan(120_000);
    expect(failure).toMatchObject({ status: 401, reqId: expect.any(String) });
    expect(request).toMatchObject({
      req: { method: 'POST', url: '/api/auth/login', remoteAddress: '127.0.0.1' },
    });
  });

  it('logs each inbound webhook verification with its id and result, never the signature', () => {
    const verified = parsed.find((line) => line.msg === 'inbound webhook');
    const refused = parsed.find((line) => line.msg === 'inbound webhook refused');

    expect(verified).toMatchObject({
      result: 'verified',
      webhookId: expect.stringMatching(/^msg_/),
    });
    expect(refused).toMatchObject({ webhookId: expect.stringMatching(/^msg_/) });
    expect(JSON.stringify([verified, refused])).not.toContain('v1,');
  });

  it('serializes a request as method, URL without long numbers, id and client address only', () => {
    const options = loggerOptions('info') as unknown as {
      serializers: { req: (request: Record<string, unknown>) => unknown };
    };

    expect(
      options.serializers.req({
        method: 'POST',
        url: '/api/auth/login',
        id: 'req-1',
        ip: '203.0.113.7',
        headers: { cookie: 'bg_session=secret' },
        body: { password: 'secret' },
      }),
    ).toEqual({
      method: 'POST',
      url: '/api/auth/login',
      id: 'req-1',
      remoteAddress: '203.0.113.7',
    });
    expect(
      options.serializers.req({
        method: 'GET',
        url: '/api/data-subjects/8001015009087/export?phone=0821234567',
        id: 'req-2',
      }),
    ).toMatchObject({ url: '/api/data-subjects/[redacted]/export?phone=[redacted]' });
  });
});
