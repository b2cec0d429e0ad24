import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';

describe('the HTTP edge', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('sends the security headers on success and on error responses', async () => {
    for (const response of [
      await t.inject({ method: 'GET', url: '/api/health' }),
      await t.inject({ method: 'GET', url: '/api/auth/me' }),
      await t.inject({ method: 'GET', url: '/api/nothing-here' }),
    ]) {
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(csp).not.toContain("'unsafe-eval'");
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(response.headers['strict-transport-security']).toMatch(
        /max-age=31536000; includeSubDomains/,
      );
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('is ready for a load balancer: database reachable, any Host', async () => {
    const response = await t.inject({
      method: 'GET',
      url: '/api/ready',
      headers: { host: '10.0.0.7:5000' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready' });
  });

  it('answers unknown API paths with a JSON 404 in the error format', async () => {
    const response = await t.inject({ method: 'GET', url: '/api/nothing-here' });

    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Not found.' } });
  });

  it('accepts only JSON bodies', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'username=a&password=b',
    });

    expect(response.statusCode).toBe(415);
    expect(response.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers malformed JSON with a 400 in the error format', async () => {
    const response = await t.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
    });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { code: 'INVALID', message: 'The request body is not valid JSON.' },
    });
  });

  it('refuses state-changing requests from other sites', async () => {
    const body = { username: 'someone', password: 'whatever' };

    const crossSite = await t.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: body,
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    const evilOrigin = await t.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: body,
      headers: { origin: 'https://evil.example' },
    });
    const sameOrigin = await t.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: body,
      headers: { 'sec-fetch-site': 'same-origin' },
    });

    expect(crossSite.statusCode).toBe(403);
    expect(evilOrigin.statusCode).toBe(403);
    expect(sameOrigin.statusCode).toBe(401);
  });

  it('serves the OpenAPI document with every route and its schemas', async () => {
    const response = await t.inject({ method: 'GET', url: '/api/docs/json' });

    const document = response.json<{
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    }>();
    expect(response.statusCode).toBe(200);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/auth/login',
        '/api/auth/register',
        '/api/users',
        '/api/users/{id}/deactivate',
        '/api/auth/mfa/verify',
        '/api/auth/mfa/totp/setup',
        '/api/auth/mfa/totp/confirm',
        '/api/auth/mfa/passkeys/registration/options',
        '/api/auth/mfa/passkeys/registration/verify',
        '/api/auth/mfa/passkeys/authentication/options',
        '/api/auth/mfa/passkeys/authentication/verify',
        '/api/users/{id}/mfa/reset',
      ]),
    );
    expect(document.paths['/api/auth/login']?.post?.requestBody).toBeDefined();
    // The login's answer is either the second step's challenge or the signed-in body (SEC-26).
    expect(JSON.stringify(document.paths['/api/auth/login']?.post)).toContain('mfaRequired');
    // Issue 14: every route taking an image documents its capture field; OCR answers captureId.
    const capturesByRoute: Record<string, string[]> = {
      '/api/auto-gate/grant-entry': [
        'plateImageCaptureId',
        'vehicleDiskImageCaptureId',
        'driverFaceImageCaptureId',
        'driverLicenseImageCaptureId',
        'passportImageCaptureId',
        'permitImagesCaptureIds',
      ],
      '/api/licence-disc': ['discImageCaptureId'],
      '/api/identity-document': ['sourceImageFrontCaptureId'],
      '/api/drivers-licence': ['sourceImageFrontCaptureId'],
      '/api/passport': ['passportImageCaptureId'],
      '/api/weighbridge-ticket': ['ticketImageCaptureId'],
      '/api/approved-vehicles': ['driverPhotoCaptureId'],
      '/api/face-comparison': ['image1CaptureId', 'image2CaptureId'],
    };
    for (const [path, fields] of Object.entries(capturesByRoute)) {
      const body = JSON.stringify(document.paths[path]?.post?.requestBody ?? null);
      for (const field of fields) expect(body, `${path} ${field}`).toContain(`"${field}"`);
    }
    const ocr = JSON.stringify(document.paths['/api/ocr']?.post ?? null);
    expect(ocr).toContain('"captureId"');
    expect(ocr).toContain('"reading"');
  });
});
