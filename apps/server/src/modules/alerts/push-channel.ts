import { createECDH, hkdfSync } from 'node:crypto';

import webpush from 'web-push';

import type { CallbackSender } from '@/modules/webhooks';

export type VapidKeys = { publicKey: string; privateKey: string };

export type PushTarget = { endpoint: string; keys: { p256dh: string; auth: string } };

export type PushResult =
  | { kind: 'delivered'; status: number }
  /** 404 or 410: the browser dropped the subscription; it is deleted, never retried. */
  | { kind: 'gone'; status: number }
  | { kind: 'failed'; status: number | null; error: string };

/**
 * The tenant's VAPID key pair, derived from the data encryption key (ENCRYPTION_KEY, or the one
 * generated into DATA_DIR/secrets.json with the other secrets) with HKDF-SHA256 and the tenant id:
 * every API process and worker signs with the same pair without storing one, and nothing is
 * written when a browser asks for the public key. Rotating ENCRYPTION_KEY rotates them (browsers
 * then subscribe again).
 */
export function deriveVapidKeys(masterKey: Buffer, tenantId: string): VapidKeys {
  for (let counter = 0; ; counter++) {
    const candidate = Buffer.from(
      hkdfSync('sha256', masterKey, tenantId, `boomgate alerts vapid p-256 ${counter}`, 32),
    );
    const ecdh = createECDH('prime256v1');
    try {
      // Refused for 0 and for values ≥ the curve order (odds about 2^-32): then the next counter.
      ecdh.setPrivateKey(candidate);
    } catch {
      continue;
    }
    return {
      publicKey: ecdh.getPublicKey().toString('base64url'),
      privateKey: candidate.toString('base64url'),
    };
  }
}

/**
 * Web Push (RFC 8030) with VAPID (RFC 8292) and the aes128gcm payload encryption of RFC 8291,
 * built by `web-push` (its generateRequestDetails: the JWT and the encryption, which we would not
 * hand-roll). The request itself goes through the webhooks' guarded sender: a subscription's
 * endpoint comes from a browser, so it gets the callback URLs' SSRF checks (public https only;
 * loopback http only where WEBHOOKS_ALLOW_LOOPBACK_HTTP allows it).
 */
export function createPushChannel({
  sender,
  subject,
}: {
  sender: Pick<CallbackSender, 'send'>;
  subject: string;
}) {
  return {
    async send(target: PushTarget, payload: string, vapid: VapidKeys): Promise<PushResult> {
      const details = webpush.generateRequestDetails(target, payload, {
        vapidDetails: { subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
        contentEncoding: 'aes128gcm',
        TTL: 24 * 3600,
        urgency: 'high',
      });
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(details.headers)) {
        headers[name.toLowerCase()] = String(value);
      }
      const result = await sender.send({
        url: details.endpoint,
        body: details.body ?? Buffer.alloc(0),
        headers,
      });
      if (result.status !== null && result.status >= 200 && result.status < 300) {
        return { kind: 'delivered', status: result.status };
      }
      if (result.status === 404 || result.status === 410) {
        return { kind: 'gone', status: result.status };
      }
      return {
        kind: 'failed',
        status: result.status,
        error: result.error ?? `The push service answered ${result.status}.`,
      };
    },
  };
}
export type PushChannel = ReturnType<typeof createPushChannel>;
