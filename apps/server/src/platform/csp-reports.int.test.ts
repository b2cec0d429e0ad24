import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, createTestApp } from '@/testing/test-app';

/** What Chromium sends to a `report-uri` when an injected inline script is blocked. */
const chromiumReport = {
  'csp-report': {
    'document-uri': 'http://localhost:5000/drivers/8001015009087/edit?driver=8001015009087#x',
    referrer: '',
    'violated-directive': 'script-src-elem',
    'effective-directive': 'script-src-elem',
    'original-policy': "default-src 'self'; report-uri /api/csp-report",
    disposition: 'enforce',
    'blocked-uri': 'inline',
    'line-number': 12,
    'source-file': 'http://localhost:5000/assets/index-abc.js?v=1',
    'status-code': 200,
    'script-sample': '',
  },
};

describe('POST /api/csp-report (SEC-37)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const send = (body: unknown, contentType: string, remoteAddress = '10.9.0.1') =>
    t.inject({
      method: 'POST',
      url: '/api/csp-report',
      headers: { 'content-type': contentType },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
      remoteAddress,
    });
  const violationLogs = () =>
    t.logLines
      .flatMap((chunk) => chunk.split('\n'))
      .filter((line) => line.includes('"csp.violation"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('logs a browser report without query strings or long numbers, and answers 204', async () => {
    const before = violationLogs().length;

    const response = await send(chromiumReport, 'application/csp-report');

    expect(response.statusCode).toBe(204);
    const logged = violationLogs().slice(before);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: 40,
      page: '/drivers/[redacted]/edit',
      directive: 'script-src-elem',
      blocked: 'inline',
      sourceFile: 'http://localhost:5000/assets/index-abc.js',
      line: 12,
    });
    expect(JSON.stringify(logged[0])).not.toContain('8001015009087');
  });

  it('reads Reporting API batches and ignores entries that are not CSP violations', async () => {
    const before = violationLogs().length;

    const response = await send(
      [
        {
          type: 'csp-violation',
          url: 'http://localhost:5000/login',
          body: {
            documentURL: 'http://localhost:5000/login',
            effectiveDirective: 'img-src',
            blockedURL: 'https://evil.example/pixel.gif?id=1',
          },
        },
        { type: 'deprecation', body: { id: 'x' } },
      ],
      'application/reports+json',
    );

    expect(response.statusCode).toBe(204);
    expect(violationLogs().slice(before)).toEqual([
      expect.objectContaining({
        page: '/login',
        directive: 'img-src',
        blocked: 'https://evil.example/pixel.gif',
      }),
    ]);
  });

  it('refuses other media types, broken JSON and oversized bodies in the error format', async () => {
    const plain = await send('hello', 'text/plain');
    const broken = await send('{"csp-report":', 'application/csp-report');
    const huge = await send(
      { 'csp-report': { 'blocked-uri': 'x'.repeat(20_000) } },
      'application/csp-report',
    );

    expect(plain.statusCode).toBe(415);
    expect(broken.statusCode).toBe(400);
    expect(huge.statusCode).toBe(413);
    for (const response of [plain, broken, huge]) {
      expect(response.json()).toMatchObject({ error: { code: expect.any(String) } });
    }
  });

  it('accepts the report media types on this route only', async () => {
    const admin = await t.registerTenant();

    const elsewhere = await admin.post(
      '/api/auto-gate/grant-entry',
      JSON.stringify(chromiumReport),
      {
        headers: { 'content-type': 'application/csp-report' },
      },
    );

    expect(elsewhere.statusCode).toBe(415);
  });

  it('limits each address to 60 reports a minute', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      statuses.push((await send(chromiumReport, 'application/csp-report', '10.9.9.9')).statusCode);
    }

    expect(statuses.slice(0, 60).every((status) => status === 204)).toBe(true);
    expect(statuses[60]).toBe(429);
  });
});
