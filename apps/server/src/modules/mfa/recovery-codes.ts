import { createHmac, randomInt } from 'node:crypto';

export const RECOVERY_CODE_COUNT = 10;
// Lower-case letters and digits without the ones people confuse (0/o, 1/l/i).
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 12; // ≈ 59 bits each

/** Ten fresh codes shown once, as xxxx-xxxx-xxxx. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]);
    return [0, 4, 8].map((start) => chars.slice(start, start + 4).join('')).join('-');
  });
}

/** What the user typed, as stored: case, spaces and dashes do not matter. */
export const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Stored as HMAC-SHA256 under a key derived from the server's encryption key: a leaked table (or
 * backup) is useless without the key, and a lookup by hash needs no per-code slow hash.
 */
export function recoveryCodeHasher(encryptionKey: Buffer) {
  const key = createHmac('sha256', encryptionKey).update('boomgate mfa recovery codes').digest();
  return (code: string) =>
    createHmac('sha256', key).update(normalizeRecoveryCode(code)).digest('base64url');
}
