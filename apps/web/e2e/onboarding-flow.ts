import type { BrowserContext, Page } from 'playwright-core';

import type { Viewport } from './flows';
import { assert, type Flow } from './runner';

type OnboardingFlowContext = {
  flow: Flow;
  page: Page;
  context: BrowserContext;
  baseUrl: string;
  viewport: Viewport;
  screenshot: (name: string) => Promise<void>;
  pageErrors: string[];
};

/** The server reads the licence photo with the real vision engine; its first use loads models. */
const OCR_TIMEOUT_MS = 120_000;
/** Loading the face model (tfjs + weights) and warming it up, on a CPU-only test machine. */
const FACE_MODEL_TIMEOUT_MS = 120_000;
/** Four 2 s prompts, then 2 s of verifying, with room for a slow model. */
const LIVENESS_TIMEOUT_MS = 60_000;

async function expectPath(page: Page, pathname: string) {
  await page.waitForURL((url) => url.pathname === pathname, { timeout: 15_000 });
}

async function expectHeading(page: Page, name: string) {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor({ timeout: 15_000 });
}

async function livenessStatus(page: Page) {
  return page.getByTestId('liveness-check').getAttribute('data-status');
}

async function waitForLivenessEnd(page: Page) {
  await page.waitForFunction(
    () => {
      const status = document
        .querySelector('[data-testid=liveness-check]')
        ?.getAttribute('data-status');
      return status === 'failed' || status === 'passed' || status === 'error';
    },
    undefined,
    { timeout: LIVENESS_TIMEOUT_MS },
  );
}

/**
 * Onboarding with a fake camera showing a STILL face photo: the chooser, security onboarding (QR
 * and manual → /workflow), and self onboarding up to the liveness step, which must fail the photo
 * (having found the face in the frames, so the failure is the stillness and not a blind model).
 */
export async function runOnboardingFlow({
  flow,
  page,
  baseUrl,
  viewport,
  screenshot,
  pageErrors,
}: OnboardingFlowContext) {
  const suffix = `${viewport.name}-${Date.now().toString(36)}`;
  const admin = { username: `onboard-${suffix}`, password: 'Admin-pass-1' };
  const origin = new URL(baseUrl).origin;
  const foreignRequests: string[] = [];
  const modelFiles: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:') return;
    if (url.origin !== origin) foreignRequests.push(url.href);
    else if (url.pathname.startsWith('/models/')) modelFiles.push(url.pathname);
  });

  await flow.step('registers an organization and sees the onboarding chooser', async () => {
    await page.goto(`${baseUrl}/register`);
    await page.getByLabel('Organization Name').fill(`Kolomela Mine (${viewport.name})`);
    await page.getByLabel('Full Name').fill('Onboarding Admin');
    await page.getByLabel('Username').fill(admin.username);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByLabel('Confirm Password').fill(admin.password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expectPath(page, '/onboarding');
    await expectHeading(page, 'Onboarding');
    for (const name of ['Company Onboarding', 'Self Onboarding', 'Security Onboarding']) {
      await page.getByRole('link', { name: new RegExp(`^${name}`) }).waitFor();
    }
    await screenshot('onboarding-chooser');
  });

  await flow.step('security onboarding: QR code, then manual leads to /workflow', async () => {
    await page.getByRole('link', { name: /^Security Onboarding/ }).click();
    await expectPath(page, '/onboard/security');
    await expectHeading(page, 'Security Onboarding');
    await page.getByRole('button', { name: 'Show QR Code' }).click();
    const qr = page.getByRole('img', { name: /^QR code for / });
    await qr.waitFor();
    const qrName = (await qr.getAttribute('alt')) ?? '';
    assert(qrName.endsWith(`${baseUrl}/login`), `the QR code is for "${qrName}"`);
    await screenshot('security-onboarding');
    await page.getByRole('link', { name: 'Start Manual Onboarding' }).click();
    await expectPath(page, '/workflow');
    await expectHeading(page, 'Gate Workflow');
    await page.getByText('When to use Real Gate Entry').waitFor();
    await screenshot('workflow');
  });

  await flow.step('self onboarding step 1 validates the SA ID number', async () => {
    await page.goto(`${baseUrl}/onboarding`);
    await page.getByRole('link', { name: /^Self Onboarding/ }).click();
    await expectPath(page, '/onboard/self');
    await expectHeading(page, 'Self Onboarding');
    await page.getByLabel('First Name').fill('Sipho');
    await page.getByLabel('Surname').fill('Dlamini');
    await page.getByLabel('ID Number').fill('8001015009086');
    await page.getByLabel('Phone Number').fill('082 123 4567');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('This is not a valid South African ID number').waitFor();
    const maxLength = await page.getByLabel('ID Number').getAttribute('maxlength');
    assert(maxLength === '13', `the ID number input allows ${String(maxLength)} characters`);
    await page.getByLabel('ID Number').fill('8001015009087');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: "Driver's Licence" }).waitFor();
  });

  await flow.step('step 2: Continue needs a licence photo; the read does not block', async () => {
    const continueButton = page.getByRole('button', { name: 'Continue' });
    assert(await continueButton.isDisabled(), 'Continue is enabled without a licence photo');
    await page.getByRole('button', { name: 'Capture Licence Photo' }).click();
    const camera = page.getByRole('dialog', { name: "Driver's Licence" });
    await camera.waitFor();
    const capture = camera.getByRole('button', { name: 'Capture licence' });
    await page.waitForFunction(
      () =>
        !document.querySelector<HTMLButtonElement>('button[aria-label="Capture licence"]')
          ?.disabled,
    );
    await capture.click();
    await camera.waitFor({ state: 'hidden' });
    await page.getByRole('img', { name: "Your driver's licence, as captured" }).waitFor();
    await page
      .getByText('Reading your licence...')
      .waitFor({ state: 'hidden', timeout: OCR_TIMEOUT_MS });
    // A face is not a licence: nothing is read, and the step still continues.
    await page.getByText('Nothing was read from this photo').waitFor();
    assert(await continueButton.isEnabled(), 'Continue stays disabled after the photo');
    await screenshot('licence-step');
    await continueButton.click();
    await page.getByRole('heading', { name: 'Face Verification' }).waitFor();
  });

  await flow.step('step 3: a still face photo fails the liveness check', async () => {
    const start = page.getByRole('button', { name: 'Start Liveness Check' });
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('button')].some(
          (button) => button.textContent?.includes('Start Liveness Check') && !button.disabled,
        ),
      undefined,
      { timeout: FACE_MODEL_TIMEOUT_MS },
    );
    const check = page.getByTestId('liveness-check');
    const backend = await check.getAttribute('data-backend');
    await start.click();
    await page.getByText('Look at the camera', { exact: true }).first().waitFor();
    await screenshot('liveness-prompt');
    await waitForLivenessEnd(page);

    const status = await livenessStatus(page);
    const frames = Number(await check.getAttribute('data-frames'));
    const framesWithFace = Number(await check.getAttribute('data-frames-with-face'));
    console.log(
      `    liveness on ${String(backend)}: ${status} — ${framesWithFace}/${frames} frames with a face`,
    );
    assert(status === 'failed', `a still photo gave liveness status "${String(status)}"`);
    assert(
      framesWithFace >= 5,
      `the face model found a face in only ${framesWithFace} of ${frames} frames`,
    );
    const alert = page.getByRole('alert').filter({ hasText: 'Liveness check failed' });
    await alert.waitFor();
    const message = (await alert.textContent()) ?? '';
    assert(
      message.includes('This looks like a photo, not a live face'),
      `the failure says: ${message}`,
    );
    assert(
      await page.getByRole('button', { name: 'Continue' }).isDisabled(),
      'Continue is enabled after a failed liveness check',
    );
    await screenshot('liveness-failed');
  });

  await flow.step('the face model came from our own origin, nothing from elsewhere', async () => {
    for (const file of [
      '/models/face-api/tiny_face_detector_model-weights_manifest.json',
      '/models/face-api/tiny_face_detector_model.bin',
      '/models/face-api/face_landmark_68_model.bin',
    ]) {
      assert(
        modelFiles.includes(file),
        `${file} was not loaded (loaded: ${modelFiles.join(', ')})`,
      );
    }
    assert(
      foreignRequests.length === 0,
      `requests to other origins:\n${foreignRequests.join('\n')}`,
    );
  });

  await flow.step('Try Again runs the check again (and the photo fails again)', async () => {
    await page.getByRole('button', { name: 'Try Again' }).click();
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid=liveness-check]')?.getAttribute('data-status') !==
        'failed',
    );
    await waitForLivenessEnd(page);
    assert(
      (await livenessStatus(page)) === 'failed',
      'the retried check did not fail the still photo',
    );
  });

  await flow.step('Back returns to /onboarding', async () => {
    await page.getByRole('link', { name: 'Back' }).click();
    await expectPath(page, '/onboarding');
  });

  await flow.step('no uncaught errors in the page', async () => {
    assert(pageErrors.length === 0, `page errors:\n${pageErrors.join('\n')}`);
  });
}
