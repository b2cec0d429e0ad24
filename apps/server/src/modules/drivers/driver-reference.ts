import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

const PREFIX = 'BGD1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export type DriverReferenceSigner = ReturnType<typeof createDriverReferenceSigner>;

/**
 * The reference a self-onboarded driver's QR code carries: `BGD1.<tenant>.<driver>.<mac>`, where
 * mac is HMAC-SHA256 (first 128 bits) under a key derived from the data encryption key for this
 * purpose only. It names a record and proves we issued it; it holds no personal data.
 */
export function createDriverReferenceSigner(encryptionKey: Buffer) {
  const key = Buffer.from(
    hkdfSync('sha256', encryptionKey, '', 'boomgate driver reference v1', 32),
  );
  const macOf = (tenantId: string, driverId: string) =>
    createHmac('sha256', key).update(`${PREFIX}.${tenantId}.${driverId}`).digest().subarray(0, 16);
  return {
    sign: (tenantId: string, driverId: string) =>
      `${PREFIX}.${tenantId}.${driverId}.${macOf(tenantId, driverId).toString('base64url')}`,
    /** The record a reference names, or null when it is malformed or its signature is wrong. */
    verify(reference: string): { tenantId: string; driverId: string } | null {
      const [prefix, tenant, driver, mac, ...rest] = reference.trim().split('.');
      const tenantId = tenant?.toLowerCase() ?? '';
      const driverId = driver?.toLowerCase() ?? '';
      if (prefix !== PREFIX || rest.length > 0 || !mac) return null;
      if (!UUID.test(tenantId) || !UUID.test(driverId)) return null;
      // Compared as text: a base64url string with other padding bits would decode to the same MAC.
      const given = Buffer.from(mac);
      const expected = Buffer.from(macOf(tenantId, driverId).toString('base64url'));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      return { tenantId, driverId };
    },
  };
}
