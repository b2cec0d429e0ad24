import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';

import { generateIntegrationSecret, signWebhook, verifyWebhook } from './signature';

describe('signWebhook', () => {
  const secret = generateIntegrationSecret();
  const sentAt = new Date('2026-01-01T00:00:00Z');

  it('stamps the send time in Unix seconds', () => {
    expect(
      signWebhook({ webhookId: 'msg_1', sentAt, body: '{}', secrets: [secret] })[
        'webhook-timestamp'
      ],
    ).toBe('1767225600');
  });

  it('produces what the standardwebhooks library verifies', () => {
    const body = '{"type":"incoming-request.completed"}';
    const headers = signWebhook({
      webhookId: 'msg_1',
      sentAt: new Date(),
      body,
      secrets: [secret],
    });

    expect(new Webhook(secret).verify(body, headers)).toEqual({
      type: 'incoming-request.completed',
    });
  });

  it('lists one signature per secret, each verifiable with its own secret', () => {
    const previous = generateIntegrationSecret();
    const body = '{"a":1}';
    const headers = signWebhook({
      webhookId: 'msg_2',
      sentAt: new Date(),
      body,
      secrets: [secret, previous],
    });

    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(previous).verify(body, headers)).toEqual({ a: 1 });
  });
});

describe('verifyWebhook', () => {
  const secret = generateIntegrationSecret();
  const now = new Date('2026-03-01T10:00:00Z');
  const body = Buffer.from('{"plateNumber":"CA123456"}');
  const signed = (at = now, id = 'msg_1') => ({
    'webhook-id': id,
    'webhook-timestamp': Math.floor(at.getTime() / 1000).toString(),
    'webhook-signature': new Webhook(secret).sign(id, at, body.toString('utf8')),
  });

  it('accepts a signature made by the standardwebhooks library', () => {
    expect(verifyWebhook({ headers: signed(), body, secrets: [secret], now })).toEqual({
      ok: true,
      webhookId: 'msg_1',
    });
  });

  it('accepts any listed secret (rotation)', () => {
    const result = verifyWebhook({
      headers: signed(),
      body,
      secrets: [generateIntegrationSecret(), secret],
      now,
    });

    expect(result.ok).toBe(true);
  });

  it('refuses a changed webhook-id (the id is signed)', () => {
    const headers = { ...signed(), 'webhook-id': 'msg_other' };

    expect(verifyWebhook({ headers, body, secrets: [secret], now })).toEqual({
      ok: false,
      reason: 'no-matching-signature',
    });
  });

  it('refuses timestamps 301 s away in either direction', () => {
    const shifted = (seconds: number) => signed(new Date(now.getTime() + seconds * 1000));

    expect(verifyWebhook({ headers: shifted(-301), body, secrets: [secret], now })).toMatchObject({
      reason: 'timestamp-outside-tolerance',
    });
    expect(verifyWebhook({ headers: shifted(301), body, secrets: [secret], now }).ok).toBe(false);
    expect(verifyWebhook({ headers: shifted(300), body, secrets: [secret], now }).ok).toBe(true);
  });

  it('refuses a malformed timestamp and a signature of another scheme', () => {
    expect(
      verifyWebhook({
        headers: { ...signed(), 'webhook-timestamp': '12e9' },
        body,
        secrets: [secret],
        now,
      }),
    ).toMatchObject({
      reason: 'bad-timestamp',
    });
    const v1a = {
      ...signed(),
      'webhook-signature': signed()['webhook-signature'].replace('v1,', 'v1a,'),
    };
    expect(verifyWebhook({ headers: v1a, body, secrets: [secret], now }).ok).toBe(false);
  });

  it('refuses when the tenant has no secret', () => {
    expect(verifyWebhook({ headers: signed(), body, secrets: [], now })).toEqual({
      ok: false,
      reason: 'no-secret',
    });
  });
});

describe('generateIntegrationSecret', () => {
  it('is whsec_ and the base64 of 32 random bytes', () => {
    const secret = generateIntegrationSecret();

    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateIntegrationSecret()).not.toBe(secret);
  });
});
