import { createHmac, randomInt } from 'node:crypto';

import { OVERRIDE_PIN_LENGTH } from '@boomgate/contracts/override-pins';

/** A fresh PIN: six random digits, leading zeros kept. */
export function generateOverridePin(): string {
  return randomInt(0, 10 ** OVERRIDE_PIN_LENGTH)
    .toString()
    .padStart(OVERRIDE_PIN_LENGTH, '0');
}

/**
 * The stored form of a PIN: HMAC-SHA256 under a key derived from the server's encryption key and
 * bound to the organization, so the table alone (a backup, a leak) does not give the PINs away
 * and one organization's hash says nothing about another's.
 */
export function createOverridePinHasher(encryptionKey: Buffer) {
  const key = createHmac('sha256', encryptionKey).update('boomgate override pins').digest();
  return (tenantId: string, pin: string) =>
    createHmac('sha256', key).update(`${tenantId}.${pin.trim()}`).digest('base64url');
}
