import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { BrowserContext, Page } from 'playwright-core';

import type { Viewport } from './flows';
import { type FakeCamera, faceJpeg } from './gate-camera';
import { scanPlateAtAutoGate, uploadInCamera } from './gate-flows';
import { assert, type Flow } from './runner';

type WatchlistFlowContext = {
  flow: Flow;
  page: Page;
  context: BrowserContext;
  baseUrl: string;
  viewport: Viewport;
  screenshot: (name: string) => Promise<void>;
  pageErrors: string[];
  camera: FakeCamera;
};

/** The real vision engine reads the plate; its first use loads the OCR model. */
const ENGINE_TIMEOUT_MS = 120_000;

/**
 * Issue 21, "who may enter": an admin puts a plate on the watchlist under Settings; the plate is
 * scanned at the auto gate and refused by the server (no Pre-Register button for a watched
 * plate), and pre-registering it by hand is refused with the reason; the admin overrides the
 * refusal from the dashboard with a reason, and the entry shows who overrode it and why. Then a guard's own session scans the watched plate: the guard sees the
 * refusal (no Pre-Register) and overrides it with a supervisor's one-time PIN the admin issued;
 * the dashboard shows the supervisor and the guard who entered the PIN.
 */
export async function runWatchlistFlow({
  flow,
  page,
  context,
  baseUrl,
  viewport,
  screenshot,
  camera,
}: WatchlistFlowContext) {
  const suffix = `${viewport.name}-${Date.now().toString(36)}`;
  const plate = { display: 'KP 35 XK GP', stored: 'KP35XKGP' };
  const reason = 'Reported stolen, case 4711';
  const overrideReason = 'Owner showed the police clearance';

  await flow.step('registers an organization', async () => {
    await page.goto(`${baseUrl}/register`);
    await page.getByLabel('Organization Name').fill(`Watch Mine (${viewport.name})`);
    await page.getByLabel('Full Name').fill('Wanda Admin');
    await page.getByLabel('Username').fill(`watch-${suffix}`);
    await page.getByLabel('Password', { exact: true }).fill('Watch-pass-1');
    await page.getByLabel('Confirm Password').fill('Watch-pass-1');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL((url) => url.pathname === '/onboarding');
  });

  await flow.step('the admin adds the plate to the watchlist under Settings', async () => {
    await page.goto(`${baseUrl}/settings`);
    const section = page.getByTestId('watchlist-section');
    await section.waitFor();
    await section.getByLabel('Kind').selectOption('plate');
    await section.getByLabel('Plate', { exact: true }).fill(plate.display);
    await section.getByLabel('Reason').fill(reason);
    await section.getByLabel('At the gate').selectOption('block');
    await section.getByRole('button', { name: 'Add to Watchlist' }).click();
    await section.getByRole('cell', { name: plate.display, exact: true }).waitFor();
    await section.getByText(reason).waitFor();
    await screenshot('watchlist-added');
  });

  await flow.step(
    'the auto gate refuses the watched plate without a Pre-Register button',
    async () => {
      await camera.showPlate(plate.display);
      await scanPlateAtAutoGate(page, baseUrl, viewport);
      const panel = page.getByTestId('not-registered-panel');
      await panel.waitFor({ timeout: ENGINE_TIMEOUT_MS });
      await panel.getByText('Entry refused - watchlist').waitFor();
      await panel.getByText(reason, { exact: false }).waitFor();
      const preRegister = await panel.getByRole('link', { name: 'Pre-Register Vehicle' }).count();
      assert(preRegister === 0, 'the refused panel offers to pre-register a watched plate');
      await screenshot('auto-gate-watchlist-refused');
    },
  );

  await flow.step(
    'pre-registering the watched plate is refused with the reason, and nothing is registered',
    async () => {
      // Typed by hand (the refused panel offers no Pre-Register): the server refuses it all the same.
      const files = await mkdtemp(path.join(tmpdir(), 'boomgate-watchlist-files-'));
      const driverPhoto = path.join(files, 'driver.jpg');
      await writeFile(driverPhoto, await faceJpeg());
      await page.goto(`${baseUrl}/pre-arrival?plate=${plate.stored}`);
      await page
        .getByRole('heading', { level: 1, name: 'Pre-Arrival Registration', exact: true })
        .waitFor({ timeout: 15_000 });
      await page.getByLabel('Driver Name').fill('Lindiwe Dube');
      await page.getByRole('button', { name: 'Capture Driver Photo' }).click();
      await uploadInCamera(page, 'Driver Photo', driverPhoto);
      await page.getByRole('img', { name: 'The driver, as captured' }).waitFor();
      await page
        .getByRole('checkbox', {
          name: 'The driver agrees to their photo being used to verify their identity at the gate',
        })
        .click();
      await page.getByRole('button', { name: 'Register Vehicle' }).click();
      const refused = page.getByTestId('toast').filter({ hasText: 'Registration Failed' }).first();
      await refused.waitFor({ timeout: 30_000 });
      const text = (await refused.textContent()) ?? '';
      assert(
        text.includes(`${plate.stored} is on the watchlist`) && text.includes(reason),
        `the refusal reads "${text}", not the watched plate and its reason`,
      );
      await screenshot('pre-arrival-watchlist-refused');
      await page.goto(`${baseUrl}/registered-vehicles`);
      await page.getByText('No Registered Vehicles').waitFor({ timeout: 15_000 });
      const registered = await page.getByTestId(`vehicle-${plate.stored}`).count();
      assert(registered === 0, 'the watched plate was registered');
    },
  );

  await flow.step(
    'the admin overrides the refusal with a reason; the entry shows who and why',
    async () => {
      await page.goto(`${baseUrl}/dashboard`);
      const row = page.getByTestId('recent-entry').filter({ hasText: plate.stored }).first();
      await row.getByTestId('refused-mark').waitFor();
      await row.getByRole('button', { name: 'Override' }).click();
      const dialog = page.getByRole('dialog', { name: 'Override refused entry' });
      await dialog.getByLabel('Reason').fill(overrideReason);
      await dialog.getByRole('button', { name: 'Override Entry' }).click();
      const note = row.getByTestId('entry-override');
      await note.waitFor();
      const text = (await note.textContent()) ?? '';
      assert(
        text.includes('Wanda Admin') && text.includes(overrideReason),
        `the entry reads "${text}", not who overrode it and why`,
      );
      await screenshot('dashboard-overridden');
    },
  );

  const guard = { username: `watch-guard-${suffix}`, password: 'Guard-pass-19' };
  const pinReason = 'Supervisor confirmed by radio';
  let pin = '';

  await flow.step('the admin turns supervisor PINs on and issues one', async () => {
    await page.goto(`${baseUrl}/settings`);
    const section = page.getByTestId('override-pins-section');
    await section.getByLabel('Let guards override with a supervisor PIN').click();
    await section.getByRole('button', { name: 'Issue PIN' }).click();
    const issued = section.getByTestId('issued-pin');
    await issued.waitFor();
    pin = /\d{6}/.exec((await issued.textContent()) ?? '')?.[0] ?? '';
    assert(pin.length === 6, 'no six-digit PIN was shown');
    const created = await page.request.post(`${baseUrl}/api/users`, {
      data: {
        username: guard.username,
        password: 'First-pass-19',
        fullName: 'Gary Guard',
        role: 'security_guard',
      },
    });
    assert(created.status() === 201, `create guard answered ${created.status()}`);
    await screenshot('override-pin-issued');
  });

  await flow.step("a guard's session sees the watchlist refusal at the auto gate", async () => {
    await context.clearCookies();
    const login = await page.request.post(`${baseUrl}/api/auth/login`, {
      data: { username: guard.username, password: 'First-pass-19' },
    });
    assert(login.status() === 200, `guard login answered ${login.status()}`);
    const changed = await page.request.post(`${baseUrl}/api/auth/change-password`, {
      data: { currentPassword: 'First-pass-19', newPassword: guard.password },
    });
    assert(changed.status() === 200, `change password answered ${changed.status()}`);
    await context.clearCookies();
    await page.goto(`${baseUrl}/login`);
    await page.locator('#username').fill(guard.username);
    await page.locator('#password').fill(guard.password);
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 15_000 });

    await scanPlateAtAutoGate(page, baseUrl, viewport);
    const panel = page.getByTestId('not-registered-panel');
    await panel.waitFor({ timeout: ENGINE_TIMEOUT_MS });
    await panel.getByText('Entry refused - watchlist').waitFor();
    const preRegister = await panel.getByRole('link', { name: 'Pre-Register Vehicle' }).count();
    assert(preRegister === 0, "the guard's refused panel offers to pre-register a watched plate");
    await screenshot('guard-watchlist-refused');
  });

  await flow.step("the guard overrides with the supervisor's PIN", async () => {
    const panel = page.getByTestId('not-registered-panel');
    await panel.getByRole('button', { name: 'Supervisor PIN' }).click();
    const dialog = page.getByRole('dialog', { name: 'Override with a supervisor PIN' });
    await dialog.getByLabel('PIN').fill(pin);
    await dialog.getByLabel('Reason').fill(pinReason);
    await dialog.getByRole('button', { name: 'Override Entry' }).click();
    await page
      .getByTestId('approved-panel')
      .getByText('Entry approved - supervisor override')
      .waitFor();
    await page.goto(`${baseUrl}/dashboard`);
    const note = page
      .getByTestId('recent-entry')
      .filter({ hasText: plate.stored })
      .getByTestId('entry-override')
      .filter({ hasText: pinReason });
    await note.waitFor();
    const text = (await note.textContent()) ?? '';
    assert(
      text.includes('Wanda Admin') && text.includes('PIN entered by Gary Guard'),
      `the entry reads "${text}", not the supervisor and the guard`,
    );
    await screenshot('guard-pin-overridden');
  });
}
