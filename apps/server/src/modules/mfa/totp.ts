import { Secret, TOTP } from 'otpauth';

/**
 * RFC 6238 with the parameters every authenticator app supports (SHA-1, 6 digits, 30 s) through
 * `otpauth` (maintained, no dependencies, RFC 4226/6238 test vectors, takes our clock's time so
 * tests and the fake clock agree). A code is accepted one step either side for clock drift.
 */
export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = 'Boomgate';

const totpFor = (secretBase32: string, label: string) =>
  new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });

/** 160 random bits (RFC 4226's recommended size), base32 as apps take it when typed. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** otpauth://totp/Boomgate:<username>?secret=…&issuer=Boomgate…: what the enrolment QR holds. */
export function otpauthUrl(secretBase32: string, username: string): string {
  return totpFor(secretBase32, username).toString();
}

export const isTotpFormat = (code: string) => /^\d{6}$/.test(code);

/** The time step the code belongs to (within one step of now), or null when it is wrong. */
export function matchTotpStep(secretBase32: string, code: string, now: Date): number | null {
  if (!isTotpFormat(code)) return null;
  const delta = totpFor(secretBase32, 'check').validate({
    token: code,
    timestamp: now.getTime(),
    window: 1,
  });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS) + delta;
}
