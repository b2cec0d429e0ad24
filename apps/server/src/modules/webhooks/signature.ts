import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): HMAC-SHA256 with the secret's
 * bytes over `<webhook-id>.<webhook-timestamp>.<raw body>`, sent as `v1,<base64>`; several
 * signatures may be listed, space-separated (secret rotation).
 */
export const SECRET_PREFIX = 'whsec_';
export const SECRET_BYTES = 32;
/** The spec's tolerance for `webhook-timestamp` either side of our clock. */
export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

export function generateIntegrationSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

function secretBytes(secret: string): Buffer {
  const key = Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );
  if (key.length < 24 || key.length > 64) throw new Error('A webhook secret holds 24 to 64 bytes');
  return key;
}

function hmac(secret: string, webhookId: string, timestamp: string, body: Buffer): Buffer {
  return createHmac('sha256', secretBytes(secret))
    .update(`${webhookId}.${timestamp}.`, 'utf8')
    .update(body)
    .digest();
}

export type WebhookHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/** Signs with every given secret (current first); receivers accept any one that matches. */
export function signWebhook({
  webhookId,
  sentAt,
  body,
  secrets,
}: {
  webhookId: string;
  sentAt: Date;
  body: string | Buffer;
  secrets: readonly string[];
}): WebhookHeaders {
  const timestamp = Math.floor(sentAt.getTime() / 1000).toString();
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return {
    'webhook-id': webhookId,
    'webhook-timestamp': timestamp,
    'webhook-signature': secrets
      .map((secret) => `v1,${hmac(secret, webhookId, timestamp, bytes).toString('base64')}`)
      .join(' '),
  };
}

export type VerifyFailure =
  | 'missing-headers'
  | 'bad-timestamp'
  | 'timestamp-outside-tolerance'
  | 'no-secret'
  | 'no-matching-signature';

export type VerifyResult = { ok: true; webhookId: string } | { ok: false; reason: VerifyFailure };

const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * Verifies the raw body bytes as received (never a re-serialised object) against each secret,
 * in constant time per signature, and refuses timestamps more than the tolerance away from now.
 */
export function verifyWebhook({
  headers,
  body,
  secrets,
  now,
  toleranceSeconds = TIMESTAMP_TOLERANCE_SECONDS,
}: {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  secrets: readonly string[];
  now: Date;
  toleranceSeconds?: number;
}): VerifyResult {
  const webhookId = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!webhookId || !timestamp || !signatures || webhookId.length > 255) {
    return { ok: false, reason: 'missing-headers' };
  }
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'bad-timestamp' };
  if (Math.abs(Math.floor(now.getTime() / 1000) - Number(timestamp)) > toleranceSeconds) {
    return { ok: false, reason: 'timestamp-outside-tolerance' };
  }
  if (secrets.length === 0) return { ok: false, reason: 'no-secret' };

  const offered = signatures
    .split(' ')
    .map((entry) => entry.split(','))
    .filter(([version, value]) => version === 'v1' && value)
    .map(([, value]) => Buffer.from(value ?? '', 'base64'));
  for (const secret of secrets) {
    const expected = hmac(secret, webhookId, timestamp, body);
    if (
      offered.some(
        (candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected),
      )
    ) {
      return { ok: true, webhookId };
    }
  }
  return { ok: false, reason: 'no-matching-signature' };
}
