import { createHmac } from 'node:crypto';

import type { Page } from 'playwright-core';

import type { FlowContext } from './flows';
import { assert } from './runner';

const TOTP_PERIOD_MS = 30_000;

/**
 * RFC 6238 (SHA-1, 6 digits, 30 s), written out here rather than taken from the server's library,
 * so the test checks the server against the standard and not against itself.
 */
function totpCode(base32Secret: string, atMs: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of base32Secret.replace(/=+$/, '')) {
    bits += alphabet.indexOf(char).toString(2).padStart(5, '0');
  }
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / TOTP_PERIOD_MS)));
  const digest = createHmac('sha1', key).update(counter).digest();
  const offset = (digest[digest.length - 1] ?? 0) & 0x0f;
  const value = (digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return value.toString().padStart(6, '0');
}

/** Waits into the next 30-second step: a code is accepted once per step (replay refused). */
async function nextTimeStep(page: Page, afterMs: number) {
  const nextStepAt = (Math.floor(afterMs / TOTP_PERIOD_MS) + 1) * TOTP_PERIOD_MS;
  await page.waitForTimeout(Math.max(0, nextStepAt - Date.now()) + 500);
}

const toast = (page: Page, title: string) =>
  page.getByTestId('toast').filter({ hasText: title }).first();

/**
 * Two-step verification (SEC-26), desktop: register, set up an authenticator from the key shown
 * beside the QR code, sign out, sign in with the password and a code, and land where spec §6
 * says for a tenant_admin (/).
 */
export async function runMfaFlow({ flow, page, baseUrl, screenshot, pageErrors }: FlowContext) {
  const suffix = Date.now().toString(36);
  const admin = { username: `mfa-${suffix}`, password: 'Admin-pass-1', fullName: 'Mpho Mfa' };
  let secret = '';
  let enrolledAt = 0;

  await flow.step('registers an organization', async () => {
    await page.goto(`${baseUrl}/register`);
    await page.getByLabel('Organization Name').fill(`Venetia Mine ${suffix}`);
    await page.getByLabel('Full Name').fill(admin.fullName);
    await page.getByLabel('Username').fill(admin.username);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByLabel('Confirm Password').fill(admin.password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL((url) => url.pathname === '/onboarding');
  });

  await flow.step('sets up an authenticator from the key beside the QR code', async () => {
    await page
      .getByRole('navigation', { name: 'Account' })
      .getByRole('link', { name: 'Two-Step Verification' })
      .click();
    await page.waitForURL((url) => url.pathname === '/account/security');
    await page.getByRole('heading', { level: 1, name: 'Two-Step Verification' }).waitFor();
    await page.getByRole('button', { name: 'Set Up Authenticator' }).click();

    secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
    assert(/^[A-Z2-7]{32}$/.test(secret), `the setup key "${secret}" is not base32`);
    const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
    const qrText = (await qr.getAttribute('data-qr-text')) ?? '';
    assert(
      qrText.startsWith('otpauth://totp/') && qrText.includes(`secret=${secret}`),
      `the QR code holds "${qrText}", not the key`,
    );
    await screenshot('totp-setup');

    enrolledAt = Date.now();
    await page.getByLabel('Code from the app').fill(totpCode(secret, enrolledAt));
    await page.getByRole('button', { name: 'Turn On' }).click();
    const codes = page.getByTestId('recovery-codes').getByRole('listitem');
    await codes.first().waitFor();
    assert((await codes.count()) === 10, `${await codes.count()} recovery codes, expected 10`);
    await screenshot('recovery-codes');
    await page.getByRole('button', { name: 'I Have Saved Them' }).click();
    await page.getByText('10 recovery codes left.').waitFor();
  });

  await flow.step('signs out', async () => {
    await page.getByRole('button', { name: 'Logout', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/login');
  });

  await flow.step('signs in with the password and a code, and lands on /', async () => {
    await page.getByLabel('Username').fill(admin.username);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    const code = page.getByLabel('Verification code');
    await code.waitFor();
    await screenshot('second-step');

    await nextTimeStep(page, enrolledAt);
    await code.fill(totpCode(secret, Date.now()));
    await page.getByRole('button', { name: 'Verify' }).click();

    await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
    await page.getByRole('heading', { level: 1, name: 'System Dashboard' }).waitFor();
    await toast(page, 'Login Successful').waitFor();
    await screenshot('landed');
    assert(pageErrors.length === 0, `page errors: ${pageErrors.join('; ')}`);
  });
}
