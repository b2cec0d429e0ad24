import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import type { EntryLog } from '@boomgate/contracts/entry-logs';
import type { InductionValidity } from '@boomgate/contracts/induction';
import type { Role } from '@boomgate/contracts/roles';

import { setViewportWidth } from '@/testing/browser-shims';
import { findCamera, installFakeCamera, uploadThroughCamera } from '@/testing/camera';
import { aSession } from '@/testing/data';
import {
  A_CAPTURE_ID,
  A_FACE_CAPTURE_ID,
  aFaceComparison,
  anApprovedVehicle,
  anEntryLog,
  anEmptyRead,
  anOcrRead,
  createGateApi,
  deferred,
} from '@/testing/gate-api';
import { VIBRATION_PATTERNS } from '@/lib/decision-feedback';
import { i18next } from '@/lib/i18n';
import { apiError, signedIn } from '@/testing/handlers';
import { currentPath, expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const registered = anApprovedVehicle({
  plateNumber: 'KP35XKGP',
  driverName: 'Sipho Nkosi',
  company: 'Kumba Haulage',
});

function setUp(
  vehicles = [registered],
  inductions: Record<string, InductionValidity> = {},
  role: Role = 'security_guard',
) {
  const api = createGateApi({ vehicles, inductions });
  server.use(signedIn(aSession({ user: { role } })), ...api.handlers);
  api.onOcr(
    'plate',
    anOcrRead('plate', {}, { plateNumber: 'KP35XKGP', displayPlate: 'KP 35 XK GP' }),
  );
  const camera = installFakeCamera();
  const view = renderApp('/auto-gate');
  return { ...view, api, camera };
}

async function start(user: ReturnType<typeof setUp>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Start Vehicle Verification' }));
}

const status = () => screen.getByTestId('auto-gate-status');

describe('Automated Gate Entry', () => {
  it('shows the title, subtitle, three steps and the start button on desktop', async () => {
    setUp();

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Automated Gate Entry' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText('NPR and biometric verification system for contracted vehicles'),
    ).toBeInTheDocument();
    for (const [title, text] of [
      ['Step 1: NPR Scan', 'Capture licence plate'],
      ['Step 2: Facial Recognition', 'Verify driver identity'],
      ['Step 3: Grant Entry', 'Log and approve access'],
    ] as const) {
      expect(screen.getByText(title)).toBeInTheDocument();
      expect(screen.getByText(text)).toBeInTheDocument();
    }
    expect(screen.getByRole('button', { name: 'Start Vehicle Verification' })).toBeInTheDocument();
  });

  it("uses the compact layout with 'Start Verification' on mobile", async () => {
    setViewportWidth(390);
    setUp();

    expect(await screen.findByRole('button', { name: 'Start Verification' })).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Start Vehicle Verification' }),
    ).not.toBeInTheDocument();
  });

  it('approves a registered vehicle whose driver matches, and logs the entry once', async () => {
    const { user, api, camera } = setUp();
    const plateRead = deferred();
    const comparison = deferred();
    api.onOcr('plate', async () => {
      await plateRead.promise;
      return anOcrRead('plate', {}, { plateNumber: 'KP35XKGP' });
    });
    api.onFaceComparison(async () => {
      await comparison.promise;
      return aFaceComparison(92.4);
    });

    await start(user);
    await findCamera('Scan Licence Plate');
    await waitFor(() => expect(camera.streams).toHaveLength(1));
    expect(camera.streams[0]!.constraints.video).toMatchObject({ facingMode: 'environment' });
    await uploadThroughCamera(user, 'Scan Licence Plate');

    expect(await screen.findByText('Reading plate number...')).toBeInTheDocument();
    plateRead.resolve();

    // Registered with a photo: the face camera opens on the rear camera (spec §9, issue 19: the
    // guard photographs the driver in the cab).
    await findCamera('Verify driver identity');
    expect(status()).toHaveTextContent('Verify driver identity');
    await waitFor(() => expect(camera.streams).toHaveLength(2));
    expect(camera.streams[1]!.constraints.video).toMatchObject({ facingMode: 'environment' });
    await uploadThroughCamera(user, 'Verify driver identity');

    expect(await screen.findByText('Comparing faces...')).toBeInTheDocument();
    comparison.resolve();

    const panel = await screen.findByTestId('approved-panel');
    expect(within(panel).getByText('Entry approved - gate opening')).toBeInTheDocument();
    expect(within(panel).getByText('Sipho Nkosi')).toBeInTheDocument();
    expect(within(panel).getByText('KP 35 XK GP')).toBeInTheDocument();
    expect(within(panel).getByText('Kumba Haulage')).toBeInTheDocument();
    expect(within(panel).getByText('92%')).toBeInTheDocument();
    expect(within(panel).getByText('91%')).toBeInTheDocument(); // liveness, recorded only
    await expectToast('Entry Approved', 'Welcome Sipho Nkosi');

    expect(api.sent('GET', '/api/approved-vehicles/plate/KP35XKGP')).toHaveLength(1);
    const [compare] = api.sent('POST', '/api/face-comparison');
    expect(compare!.body).toEqual({
      image1: expect.stringMatching(/^data:image\/jpeg;base64,/),
      approvedVehicleId: registered.id,
    });
    const grants = api.sent('POST', '/api/auto-gate/grant-entry');
    expect(grants).toHaveLength(1);
    expect(grants[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(grants[0]!.body).toEqual({
      category: 'contracted',
      plateNumber: 'KP35XKGP',
      // The plate photo was stored when it was read, the face when it was compared: the entry
      // cites both captures, each image goes up once (issue 14).
      plateImageCaptureId: A_CAPTURE_ID,
      // What the camera read, beside the plate checked (issue 15); no correction was typed.
      extractedPlate: 'KP35XKGP',
      driverFaceImageCaptureId: A_FACE_CAPTURE_ID,
      vehicleApproved: true,
      faceVerified: true,
      matchScore: 92.4,
      faceComparisonId: '5b0f3c1e-6a7d-4e2b-9c4f-0d1e2f3a4b5c',
      entryGranted: true,
    });

    await user.click(within(panel).getByRole('button', { name: 'Process Next Vehicle' }));
    expect(
      await screen.findByRole('button', { name: 'Start Vehicle Verification' }),
    ).toBeInTheDocument();
  });

  it("shows the face verdict the server stored, not the screen's own", async () => {
    const { user, api } = setUp();
    api.onFaceComparison(aFaceComparison(92.4));
    api.onGrantEntry(anEntryLog({ faceVerified: false, matchScore: null }));

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');
    await uploadThroughCamera(user, 'Verify driver identity');

    const panel = await screen.findByTestId('approved-panel');
    expect(within(panel).getByText('Not verified')).toBeInTheDocument();
    expect(within(panel).queryByText('92%')).not.toBeInTheDocument();
    await expectToast(
      'Face Verification Failed',
      'The server did not verify the face. Manual verification required.',
    );
  });

  it('shows the refusal the server decided when it refuses what the screen would grant', async () => {
    const { user, api } = setUp();
    api.onFaceComparison(aFaceComparison(92.4));
    api.onGrantEntry(
      anEntryLog({
        entryGranted: false,
        refusalReason: 'face_mismatch',
        faceVerified: false,
        warnings: [
          {
            code: 'grant_claim_contradicted',
            severity: 'warning',
            message: 'The client asked to grant the entry; the server refused it.',
            fields: ['entryGranted'],
          },
        ],
      }),
    );

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');
    await uploadThroughCamera(user, 'Verify driver identity');

    const panel = await screen.findByTestId('not-registered-panel');
    expect(
      within(panel).getByText('Face verification failed - manual check required'),
    ).toBeInTheDocument();
    expect(within(panel).getByTestId('verification-warnings')).toHaveTextContent(
      'the server refused it',
    );
    expect(screen.queryByTestId('approved-panel')).not.toBeInTheDocument();
    await expectToast(
      'Entry Refused',
      'The server refused the entry. Manual verification required.',
    );
  });

  it('never offers Pre-Register for a plate the server refuses by its watchlist (issue 21)', async () => {
    const { user, api } = setUp([]);
    api.onOcr('plate', anOcrRead('plate', {}, { plateNumber: 'CA123456' }));
    api.onGrantEntry(
      anEntryLog({
        plateNumber: 'CA123456',
        entryGranted: false,
        refusalReason: 'watchlist',
        warnings: [
          {
            code: 'watchlist_hit',
            severity: 'critical',
            message: 'Plate CA123456 is on the watchlist (block): Reported stolen',
            fields: ['plateNumber'],
          },
        ],
      }),
    );

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');

    const panel = await screen.findByTestId('not-registered-panel');
    expect(within(panel).getByText('Entry refused - watchlist')).toBeInTheDocument();
    expect(within(panel).getByTestId('refusal-detail')).toHaveTextContent('Reported stolen');
    // The reason once: not again in the warnings list beside it.
    expect(within(panel).getAllByText(/Reported stolen/)).toHaveLength(1);
    expect(within(panel).queryByRole('link', { name: 'Pre-Register Vehicle' })).toBeNull();
  });

  it('never offers Pre-Register for an unregistered plate with a watchlist alert (issue 21)', async () => {
    const { user, api } = setUp([]);
    api.onOcr('plate', anOcrRead('plate', {}, { plateNumber: 'CA123456' }));
    api.onGrantEntry(
      anEntryLog({
        plateNumber: 'CA123456',
        entryGranted: false,
        refusalReason: 'not_registered',
        warnings: [
          {
            code: 'watchlist_hit',
            severity: 'warning',
            message: 'Plate CA123456 is on the watchlist (alert): Late payments',
            fields: ['plateNumber'],
          },
        ],
      }),
    );

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');

    const panel = await screen.findByTestId('not-registered-panel');
    expect(within(panel).getByText('Vehicle not pre-registered')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(panel).getByTestId('verification-warnings')).toHaveTextContent('Late payments'),
    );
    expect(within(panel).queryByRole('link', { name: 'Pre-Register Vehicle' })).toBeNull();
  });

  it("lets the guard override a watchlist refusal with a supervisor's PIN (issue 21)", async () => {
    const { user, api } = setUp([]);
    api.onOcr('plate', anOcrRead('plate', {}, { plateNumber: 'CA123456' }));
    const refused = anEntryLog({
      plateNumber: 'CA123456',
      entryGranted: false,
      refusalReason: 'watchlist',
      warnings: [
        {
          code: 'watchlist_hit',
          severity: 'critical',
          message: 'Plate CA123456 is on the watchlist (block): Reported stolen',
          fields: ['plateNumber'],
        },
      ],
    });
    api.onGrantEntry(refused);
    const sent: unknown[] = [];
    let attempts = 0;
    server.use(
      http.post(`/api/entry-logs/${refused.id}/pin-override`, async ({ request }) => {
        sent.push(await request.json());
        attempts += 1;
        if (attempts === 1)
          return apiError(403, 'FORBIDDEN', 'The PIN is wrong, already used or expired.');
        return HttpResponse.json({
          ...refused,
          entryGranted: true,
          override: {
            reason: 'Owner cleared by SAPS',
            overriddenAt: new Date().toISOString(),
            overriddenBy: { id: null, name: 'Thandi Supervisor' },
            enteredBy: { id: null, name: 'Guard' },
          },
        });
      }),
    );

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');
    const panel = await screen.findByTestId('not-registered-panel');
    await user.click(within(panel).getByRole('button', { name: 'Supervisor PIN' }));
    const dialog = await screen.findByRole('dialog');
    const submit = within(dialog).getByRole('button', { name: 'Override Entry' });
    await user.type(within(dialog).getByLabelText('PIN'), '12a34');
    expect(submit).toBeDisabled(); // four digits: letters are dropped
    await user.type(within(dialog).getByLabelText('PIN'), '56');
    await user.type(within(dialog).getByLabelText('Reason'), 'Owner cleared by SAPS');
    await user.click(submit);
    await expectToast('Override Failed', 'The PIN is wrong, already used or expired.');
    expect(within(dialog).getByLabelText('PIN')).toHaveValue('');

    await user.type(within(dialog).getByLabelText('PIN'), '654321');
    await user.click(within(dialog).getByRole('button', { name: 'Override Entry' }));

    const approved = await screen.findByTestId('approved-panel');
    expect(within(approved).getByRole('status')).toHaveTextContent(
      'Entry approved - supervisor override',
    );
    expect(sent).toEqual([
      { pin: '123456', reason: 'Owner cleared by SAPS' },
      { pin: '654321', reason: 'Owner cleared by SAPS' },
    ]);
  });

  it.each([
    ['super_admin', false],
    ['tenant_admin', true],
    ['back_office', true],
  ] as const)(
    "offers %s the supervisor's PIN override only as the server allows it (issue 21): %s",
    async (role, offered) => {
      const { user, api } = setUp([], {}, role);
      api.onOcr('plate', anOcrRead('plate', {}, { plateNumber: 'CA123456' }));
      api.onGrantEntry(
        anEntryLog({
          plateNumber: 'CA123456',
          entryGranted: false,
          refusalReason: 'watchlist',
          warnings: [
            {
              code: 'watchlist_hit',
              severity: 'critical',
              message: 'Plate CA123456 is on the watchlist (block): Reported stolen',
              fields: ['plateNumber'],
            },
          ],
        }),
      );

      await start(user);
      await uploadThroughCamera(user, 'Scan Licence Plate');
      const panel = await screen.findByTestId('not-registered-panel');
      expect(await within(panel).findByText('Entry refused - watchlist')).toBeInTheDocument();
      expect(within(panel).queryByRole('button', { name: 'Supervisor PIN' }) !== null).toBe(
        offered,
      );
      expect(within(panel).getByRole('button', { name: 'Scan Again' })).toBeInTheDocument();
    },
  );

  it('shows a covert watchlist refusal only as "Manual check required" (issue 21)', async () => {
    const { user, api } = setUp();
    api.onGrantEntry(
      anEntryLog({
        entryGranted: false,
        refusalReason: 'watchlist',
        warnings: [
          {
            code: 'watchlist_hit',
            severity: 'critical',
            message: 'Manual check required',
            fields: [],
          },
        ],
      }),
    );
    api.onFaceComparison(aFaceComparison(92.4));

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');
    await uploadThroughCamera(user, 'Verify driver identity');

    const panel = await screen.findByTestId('not-registered-panel');
    expect(within(panel).getByText('Manual check required')).toBeInTheDocument();
    expect(within(panel).queryByTestId('refusal-detail')).toBeNull();
    expect(within(panel).queryByRole('link', { name: 'Pre-Register Vehicle' })).toBeNull();
  });

  it('speaks isiZulu: its title, steps, buttons, camera and refusal status (issue 19)', async () => {
    await i18next.changeLanguage('zu');
    // The language a signed-in user picks is saved for them on the server.
    server.use(http.patch('/api/auth/preferences', () => HttpResponse.json({ language: 'zu' })));
    const { user, api } = setUp([]);
    api.onOcr('plate', anOcrRead('plate', {}, { plateNumber: 'CA123456' }));

    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: 'Ukungena Esangweni Okuzenzakalelayo',
      }),
    ).toBeInTheDocument();
    expect(screen.getByText('Isinyathelo 1: Ukuskena Ipuleti')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Qala Ukuqinisekisa Imoto' }));
    await uploadThroughCamera(user, 'Skena Ipuleti Lenombolo');

    const panel = await screen.findByTestId('not-registered-panel');
    // The machine keeps the spec's English status; the guard reads it in isiZulu.
    expect(within(panel).getByRole('status')).toHaveTextContent(
      'Imoto ayibhaliswanga kusengaphambili',
    );
    expect(
      within(panel).getByRole('link', { name: 'Bhalisa Imoto Kusengaphambili' }),
    ).toBeVisible();
    expect(within(panel).getByRole('button', { name: 'Skena Futhi' })).toBeInTheDocument();
    expect(panel).not.toHaveTextContent(/Vehicle not pre-registered|Scan Again|Scanned plate/);
  });

  it('offers Pre-Register with the scanned plate for a vehicle that is not registered', async () => {
    const { user, api } = setUp([]);
    api.onOcr('plate', anOcrRead('plate', {}, { plateNumber: 'CA123456' }));

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');

    const panel = await screen.findByTestId('not-registered-panel');
    expect(within(panel).getByText('Vehicle not pre-registered')).toBeInTheDocument();
    expect(within(panel).getByTestId('scanned-plate')).toHaveTextContent('CA 123 456');
    const preRegister = within(panel).getByRole('link', { name: 'Pre-Register Vehicle' });
    expect(preRegister).toHaveAttribute('href', '/pre-arrival?plate=CA123456');
    // The refused attempt is logged, so the dashboard counts it.
    await waitFor(() => expect(api.sent('POST', '/api/auto-gate/grant-entry')).toHaveLength(1));
    const [refusal] = api.sent('POST', '/api/auto-gate/grant-entry');
    expect(refusal!.body).toMatchObject({
      category: 'contracted',
      plateNumber: 'CA123456',
      plateImageCaptureId: A_CAPTURE_ID,
      entryGranted: false,
      refusalReason: 'not_registered',
      faceVerified: false,
    });
    expect(refusal!.body).not.toHaveProperty('plateImage');

    await user.click(preRegister);

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Pre-Arrival Registration' }),
    ).toBeInTheDocument();
    expect(currentPath()).toBe('/pre-arrival');
    expect(screen.getByLabelText('Plate Number')).toHaveValue('CA123456');
    await expectToast('Plate Number Auto-Filled', 'Plate number transferred from Auto Gate');
  });

  it('buzzes the verdict: one pulse on approval, three on refusal (issue 19)', async () => {
    const vibrate = vi.fn(() => true);
    Object.defineProperty(navigator, 'vibrate', { value: vibrate, configurable: true });
    try {
      const { user, api } = setUp();
      api.onOcr('plate', anOcrRead('plate', {}, { plateNumber: 'KP35XKGP' }));
      api.onFaceComparison(aFaceComparison(92.4));
      await start(user);
      await uploadThroughCamera(user, 'Scan Licence Plate');
      await findCamera('Verify driver identity');
      expect(vibrate).not.toHaveBeenCalled();
      await uploadThroughCamera(user, 'Verify driver identity');
      await screen.findByTestId('approved-panel');
      await waitFor(() => expect(vibrate).toHaveBeenCalledWith(VIBRATION_PATTERNS.approved));
      expect(vibrate).toHaveBeenCalledTimes(1);
    } finally {
      Reflect.deleteProperty(navigator, 'vibrate');
    }
  });

  it('buzzes a refusal three times (issue 19)', async () => {
    const vibrate = vi.fn(() => true);
    Object.defineProperty(navigator, 'vibrate', { value: vibrate, configurable: true });
    try {
      const { user, api } = setUp([]);
      api.onOcr('plate', anOcrRead('plate', {}, { plateNumber: 'CA123456' }));
      await start(user);
      await uploadThroughCamera(user, 'Scan Licence Plate');
      await screen.findByTestId('not-registered-panel');
      await waitFor(() => expect(vibrate).toHaveBeenCalledWith(VIBRATION_PATTERNS.refused));
      expect(vibrate).toHaveBeenCalledTimes(1);
    } finally {
      Reflect.deleteProperty(navigator, 'vibrate');
    }
  });

  it('treats a failed lookup like an unregistered vehicle', async () => {
    const { user, api } = setUp();
    api.onOcr('plate', anOcrRead('plate', {}, { plateNumber: 'KP35XKGP' }));
    server.use(
      http.get('/api/approved-vehicles/plate/:plate', () =>
        apiError(500, 'INTERNAL', 'Database unavailable.'),
      ),
    );

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');

    expect(await screen.findByText('Vehicle not pre-registered')).toBeInTheDocument();
  });

  it("says 'Vehicle registration expired' for an inactive vehicle", async () => {
    const { user, api } = setUp([{ ...registered, isActive: false }]);

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');

    const panel = await screen.findByTestId('not-registered-panel');
    expect(within(panel).getByText('Vehicle registration expired')).toBeInTheDocument();
    await waitFor(() => expect(api.sent('POST', '/api/auto-gate/grant-entry')).toHaveLength(1));
    expect(api.sent('POST', '/api/auto-gate/grant-entry')[0]!.body).toMatchObject({
      entryGranted: false,
      refusalReason: 'registration_expired',
    });
  });

  it('grants a vehicle without a reference photo directly, not face-verified', async () => {
    const { user, api } = setUp([{ ...registered, driverPhoto: null }]);

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');

    const panel = await screen.findByTestId('approved-panel');
    expect(within(panel).getByText('Not verified (no reference photo)')).toBeInTheDocument();
    await expectToast('No Reference Photo', 'No driver photo on file for comparison');
    expect(api.sent('POST', '/api/face-comparison')).toHaveLength(0);
    expect(api.sent('POST', '/api/auto-gate/grant-entry')[0]!.body).toMatchObject({
      faceVerified: false,
      matchScore: null,
      driverFaceImage: null,
    });
  });

  it('refuses a face below 70% and asks for a manual check', async () => {
    const { user, api } = setUp();
    api.onFaceComparison(aFaceComparison(55.2));

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');
    await uploadThroughCamera(user, 'Verify driver identity');

    const panel = await screen.findByTestId('not-registered-panel');
    expect(
      within(panel).getByText('Face verification failed - manual check required'),
    ).toBeInTheDocument();
    await expectToast(
      'Face Verification Failed',
      'Match score: 55%. Manual verification required.',
    );
    await waitFor(() => expect(api.sent('POST', '/api/auto-gate/grant-entry')).toHaveLength(1));
    const [refusal] = api.sent('POST', '/api/auto-gate/grant-entry');
    expect(refusal!.body).toMatchObject({
      entryGranted: false,
      refusalReason: 'face_mismatch',
      plateImageCaptureId: A_CAPTURE_ID,
      // The face was stored by the comparison: cited, not sent again.
      driverFaceImageCaptureId: A_FACE_CAPTURE_ID,
      faceComparisonId: expect.any(String),
    });
    expect(refusal!.body).not.toHaveProperty('driverFaceImage');
  });

  it('refuses a suspected spoof even with a high match, showing the liveness score', async () => {
    const { user, api } = setUp();
    api.onFaceComparison(
      aFaceComparison(96, {
        decision: 'spoof_suspected',
        liveness: 0.18,
        antispoof: { gating: true, threshold: 0.6, passed: false },
      }),
    );

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');
    await uploadThroughCamera(user, 'Verify driver identity');

    const panel = await screen.findByTestId('not-registered-panel');
    expect(
      within(panel).getByText('Face verification failed - manual check required'),
    ).toBeInTheDocument();
    expect(within(panel).getByText(/Liveness: 18%/)).toBeInTheDocument();
    expect(within(panel).getByTestId('spoof-warning')).toBeInTheDocument();
    await expectToast(
      'Face Verification Failed',
      'Possible spoof (liveness 18%). Manual verification required.',
    );
    await waitFor(() => expect(api.sent('POST', '/api/auto-gate/grant-entry')).toHaveLength(1));
    expect(api.sent('POST', '/api/auto-gate/grant-entry')[0]!.body).toMatchObject({
      entryGranted: false,
      refusalReason: 'face_mismatch',
    });
  });

  it('offers Retake Face first after a face error, and approves without rescanning the plate (issue 15)', async () => {
    const { user, api } = setUp();
    api.onFaceComparison(apiError(422, 'UNPROCESSABLE', 'No face found in the photo.'));
    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');
    await uploadThroughCamera(user, 'Verify driver identity');

    const panel = await screen.findByTestId('not-registered-panel');
    await waitFor(() => expect(api.sent('POST', '/api/auto-gate/grant-entry')).toHaveLength(1));
    const buttons = within(panel).getAllByRole('button');
    expect(buttons.map((button) => button.textContent)).toEqual([
      'Retake Face',
      'Scan Again',
      'Correct Plate',
    ]);
    expect(within(panel).queryByRole('link', { name: 'Pre-Register Vehicle' })).toBeNull();

    api.onFaceComparison(aFaceComparison(91));
    await user.click(within(panel).getByRole('button', { name: 'Retake Face' }));
    await uploadThroughCamera(user, 'Verify driver identity');

    expect(await screen.findByTestId('approved-panel')).toBeInTheDocument();
    await waitFor(() => expect(api.sent('POST', '/api/auto-gate/grant-entry')).toHaveLength(2));
    const [refusal, entry] = api.sent('POST', '/api/auto-gate/grant-entry');
    expect(refusal!.body).toMatchObject({ entryGranted: false, refusalReason: 'face_error' });
    expect(entry!.body).toMatchObject({
      entryGranted: true,
      plateNumber: 'KP35XKGP',
      plateImageCaptureId: A_CAPTURE_ID,
    });
    // The plate was read once: the retake is a new face capture for the same vehicle.
    expect(api.sent('POST', '/api/ocr')).toHaveLength(1);
  });

  it('keeps Pre-Register Vehicle for a refusal that is not a face failure', async () => {
    const { user } = setUp([]);
    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');
    const panel = await screen.findByTestId('not-registered-panel');
    expect(within(panel).getByRole('link', { name: 'Pre-Register Vehicle' })).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Retake Face' })).toBeNull();
  });

  it("reports a face comparison error as 'Face verification error'", async () => {
    const { user, api } = setUp();
    api.onFaceComparison(apiError(422, 'UNPROCESSABLE', 'No face found in the photo.'));

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');
    await uploadThroughCamera(user, 'Verify driver identity');

    expect(await screen.findByText('Face verification error')).toBeInTheDocument();
    await expectToast('Verification Failed', 'No face found in the photo.');
    await waitFor(() => expect(api.sent('POST', '/api/auto-gate/grant-entry')).toHaveLength(1));
    const [refusal] = api.sent('POST', '/api/auto-gate/grant-entry');
    expect(refusal!.body).toMatchObject({
      entryGranted: false,
      refusalReason: 'face_error',
      // No comparison stored the face: it goes with the refusal.
      driverFaceImage: expect.stringMatching(/^data:image\//),
    });
    expect(refusal!.body).not.toHaveProperty('driverFaceImageCaptureId');
  });

  it("falls back to 'Face comparison error' without a server message", async () => {
    const { user, api } = setUp();
    api.onFaceComparison(new Response('bad gateway', { status: 502 }));

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');
    await uploadThroughCamera(user, 'Verify driver identity');

    await expectToast('Verification Failed', 'Face comparison error');
  });

  it("offers 'Enter manually' when no plate is read, and decides on the typed plate (issue 15)", async () => {
    const { user, api } = setUp([
      anApprovedVehicle({ plateNumber: 'KP35XKGP', driverPhoto: null }),
    ]);
    api.onOcr('plate', anEmptyRead('plate', 'No plate found in the image.'));

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');

    const panel = await screen.findByTestId('plate-check-panel');
    expect(within(panel).getByRole('status')).toHaveTextContent('Cannot Read Plate');
    expect(within(panel).getByText('Enter manually')).toBeInTheDocument();
    expect(api.sent('GET', '/api/approved-vehicles/plate/KP35XKGP')).toHaveLength(0);
    await user.type(within(panel).getByLabelText('Plate number'), 'kp 35 xk gp');
    await user.click(within(panel).getByRole('button', { name: 'Check Plate' }));

    const approved = await screen.findByTestId('approved-panel');
    expect(within(approved).getByTestId('typed-plate-note')).toHaveTextContent(
      'Plate typed by the guard; the camera read nothing.',
    );
    const [entry] = api.sent('POST', '/api/auto-gate/grant-entry');
    expect(entry!.body).toMatchObject({
      plateNumber: 'KP35XKGP',
      plateImageCaptureId: A_CAPTURE_ID,
      entryGranted: true,
      corrections: [
        {
          captureId: A_CAPTURE_ID,
          readingType: 'plate',
          field: 'plateNumber',
          typedValue: 'KP35XKGP',
        },
      ],
    });
    expect(entry!.body).not.toHaveProperty('extractedPlate');
  });

  it('holds an uncertain plate until the guard confirms it, then sends the confirmation (issue 15)', async () => {
    const { user, api } = setUp([
      anApprovedVehicle({ plateNumber: 'KP35XKGP', driverPhoto: null }),
    ]);
    const read = anOcrRead('plate', {}, { plateNumber: 'KP35XKGP' });
    api.onOcr('plate', { ...read, reading: { ...read.reading!, uncertain: ['plateNumber'] } });

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');

    const panel = await screen.findByTestId('plate-check-panel');
    expect(within(panel).getByRole('status')).toHaveTextContent('Confirm the plate');
    expect(within(panel).getByText(/90% confidence/)).toBeInTheDocument();
    expect(within(panel).getByTestId('read-plate')).toHaveTextContent('KP 35 XK GP');
    // Nothing is asked of the server, and no entry is logged, before the guard answers.
    expect(api.sent('GET', '/api/approved-vehicles/plate/KP35XKGP')).toHaveLength(0);
    expect(api.sent('POST', '/api/auto-gate/grant-entry')).toHaveLength(0);

    await user.click(within(panel).getByRole('button', { name: 'Confirm Plate' }));

    expect(await screen.findByTestId('approved-panel')).toBeInTheDocument();
    const [entry] = api.sent('POST', '/api/auto-gate/grant-entry');
    expect(entry!.body).toMatchObject({
      plateNumber: 'KP35XKGP',
      extractedPlate: 'KP35XKGP',
      corrections: [{ captureId: A_CAPTURE_ID, field: 'plateNumber', typedValue: 'KP35XKGP' }],
    });
  });

  it('corrects an uncertain misread before the lookup: the server is asked about the typed plate', async () => {
    const { user, api } = setUp([
      anApprovedVehicle({ plateNumber: 'KP35XKGP', driverPhoto: null }),
    ]);
    const read = anOcrRead('plate', {}, { plateNumber: 'KP35XKG8' });
    api.onOcr('plate', { ...read, reading: { ...read.reading!, uncertain: ['plateNumber'] } });

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');
    const panel = await screen.findByTestId('plate-check-panel');
    await user.click(within(panel).getByRole('button', { name: 'Correct Plate' }));
    const input = within(panel).getByLabelText('Plate number');
    await user.clear(input);
    await user.type(input, 'KP35XKGP');
    await user.click(within(panel).getByRole('button', { name: 'Check Plate' }));

    expect(await screen.findByTestId('approved-panel')).toBeInTheDocument();
    expect(api.sent('GET', '/api/approved-vehicles/plate/KP35XKG8')).toHaveLength(0);
    expect(api.sent('GET', '/api/approved-vehicles/plate/KP35XKGP')).toHaveLength(1);
    const [entry] = api.sent('POST', '/api/auto-gate/grant-entry');
    expect(entry!.body).toMatchObject({
      plateNumber: 'KP35XKGP',
      extractedPlate: 'KP35XKG8',
      corrections: [{ field: 'plateNumber', typedValue: 'KP35XKGP' }],
    });
  });

  it('corrects a misread plate after a not-registered refusal, as a new attempt (issue 15)', async () => {
    const { user, api } = setUp([
      anApprovedVehicle({ plateNumber: 'KP35XKGP', driverPhoto: null }),
    ]);
    api.onOcr('plate', anOcrRead('plate', {}, { plateNumber: 'KP35XKG8' }));

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');
    const refused = await screen.findByTestId('not-registered-panel');
    await waitFor(() => expect(api.sent('POST', '/api/auto-gate/grant-entry')).toHaveLength(1));
    await user.click(within(refused).getByRole('button', { name: 'Correct Plate' }));
    const input = within(refused).getByLabelText('Plate number');
    expect((input as HTMLInputElement).value.replaceAll(' ', '')).toBe('KP35XKG8');
    await user.clear(input);
    await user.type(input, 'KP 35 XK GP');
    await user.click(within(refused).getByRole('button', { name: 'Check Plate' }));

    const approved = await screen.findByTestId('approved-panel');
    expect(within(approved).getByTestId('typed-plate-note')).toHaveTextContent(
      'the camera read KP 35 XKG 8',
    );
    const [refusal, entry] = api.sent('POST', '/api/auto-gate/grant-entry');
    expect(refusal!.body).toMatchObject({ plateNumber: 'KP35XKG8', entryGranted: false });
    expect(refusal!.body).not.toHaveProperty('corrections');
    expect(entry!.body).toMatchObject({
      plateNumber: 'KP35XKGP',
      plateImageCaptureId: A_CAPTURE_ID,
      extractedPlate: 'KP35XKG8',
      entryGranted: true,
      corrections: [{ captureId: A_CAPTURE_ID, field: 'plateNumber', typedValue: 'KP35XKGP' }],
    });
    // A new attempt, a new entry: each has its own Idempotency-Key.
    expect(entry!.headers['idempotency-key']).not.toBe(refusal!.headers['idempotency-key']);
    // The photo was read once: the correction is typed, not scanned again.
    expect(api.sent('POST', '/api/ocr')).toHaveLength(1);
  });

  it("returns to idle with 'Scan Failed' when reading fails", async () => {
    const { user, api } = setUp();
    api.onOcr(
      'plate',
      apiError(503, 'UNAVAILABLE', 'The image reader is busy. Please try again in a moment.'),
    );

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');

    await expectToast('Scan Failed', 'The image reader is busy. Please try again in a moment.');
    expect(
      await screen.findByRole('button', { name: 'Start Vehicle Verification' }),
    ).toBeInTheDocument();
  });

  it("reports 'Entry Logging Failed' and keeps the gate shut when the entry is not logged", async () => {
    const { user, api } = setUp();
    api.onFaceComparison(aFaceComparison(88));
    api.onGrantEntry(apiError(500, 'INTERNAL', 'Could not write the entry.'));

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');
    await uploadThroughCamera(user, 'Verify driver identity');

    await expectToast('Entry Logging Failed', 'Could not write the entry.');
    expect(screen.queryByTestId('approved-panel')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Vehicle Verification' })).toBeInTheDocument();
  });

  it('returns to idle when the plate camera or the face camera is closed', async () => {
    const { user, api } = setUp();

    await start(user);
    await findCamera('Scan Licence Plate');
    await user.click(screen.getByRole('button', { name: 'Close camera' }));
    expect(
      await screen.findByRole('button', { name: 'Start Vehicle Verification' }),
    ).toBeInTheDocument();

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');
    await findCamera('Verify driver identity');
    await user.keyboard('{Escape}');

    expect(
      await screen.findByRole('button', { name: 'Start Vehicle Verification' }),
    ).toBeInTheDocument();
    expect(api.sent('POST', '/api/face-comparison')).toHaveLength(0);
    // An attempt abandoned before any verdict is not a refusal: nothing is logged.
    expect(api.sent('POST', '/api/auto-gate/grant-entry')).toHaveLength(0);
  });

  it("shows the linked driver's induction on the approved panel, and still opens the gate", async () => {
    const { user, api } = setUp([registered], {
      KP35XKGP: {
        status: 'expired',
        passedAt: '2025-01-10T08:00:00.000Z',
        validUntil: '2026-01-10T08:00:00.000Z',
      },
    });
    api.onFaceComparison(aFaceComparison(92.4));

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');
    await uploadThroughCamera(user, 'Verify driver identity');

    const panel = await screen.findByTestId('approved-panel');
    const notice = within(panel).getByTestId('induction-validity');
    expect(notice).toHaveAttribute('data-status', 'expired');
    expect(within(notice).getByText('Safety induction expired')).toBeInTheDocument();
    expect(within(notice).getByText(/expired on Jan 10, 2026/)).toBeInTheDocument();
    expect(api.sent('POST', '/api/auto-gate/grant-entry')).toHaveLength(1);
  });

  it('shows a valid induction for a vehicle granted without a reference photo', async () => {
    const { user } = setUp([{ ...registered, driverPhoto: null }], {
      KP35XKGP: {
        status: 'valid',
        passedAt: '2026-11-01T08:00:00.000Z',
        validUntil: '2027-11-01T08:00:00.000Z',
      },
    });

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');

    const panel = await screen.findByTestId('approved-panel');
    expect(within(panel).getByText('Safety induction valid')).toBeInTheDocument();
    expect(within(panel).getByText('Valid until Nov 01, 2027.')).toBeInTheDocument();
  });

  it('warns of a missing induction when the registration has expired too', async () => {
    const { user } = setUp([{ ...registered, isActive: false }], {
      KP35XKGP: { status: 'none', passedAt: null, validUntil: null },
    });

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');

    const panel = await screen.findByTestId('not-registered-panel');
    expect(within(panel).getByText('No safety induction')).toBeInTheDocument();
  });

  it('shows no induction notice for a vehicle without a linked driver', async () => {
    const { user } = setUp([{ ...registered, driverPhoto: null }]);
    let statusAsked = 0;
    server.use(
      http.get('/api/induction/status', () => {
        statusAsked += 1;
        return apiError(500, 'INTERNAL', 'not expected');
      }),
    );

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');

    const panel = await screen.findByTestId('approved-panel');
    expect(within(panel).getByText('Entry approved - gate opening')).toBeInTheDocument();
    expect(screen.queryByTestId('induction-validity')).not.toBeInTheDocument();
    expect(statusAsked).toBe(0);
  });

  it("'Scan Again' starts over from idle", async () => {
    const { user, api } = setUp([]);
    api.onOcr('plate', anOcrRead('plate', {}, { plateNumber: 'CA123456' }));

    await start(user);
    await uploadThroughCamera(user, 'Scan Licence Plate');
    await user.click(await screen.findByRole('button', { name: 'Scan Again' }));

    expect(
      await screen.findByRole('button', { name: 'Start Vehicle Verification' }),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('not-registered-panel')).not.toBeInTheDocument();
  });

  it("labels the next-vehicle button 'Next Vehicle' on mobile", async () => {
    setViewportWidth(390);
    const { user, api } = setUp();
    api.onFaceComparison(aFaceComparison(99));

    await user.click(await screen.findByRole('button', { name: 'Start Verification' }));
    await uploadThroughCamera(user, 'Scan Licence Plate');
    await uploadThroughCamera(user, 'Verify driver identity');

    const panel = await screen.findByTestId('approved-panel');
    await user.click(within(panel).getByRole('button', { name: 'Next Vehicle' }));
    expect(await screen.findByRole('button', { name: 'Start Verification' })).toBeInTheDocument();
  });
  it.each([
    ['opened', 'Gate opened'],
    ['offline', 'Barrier offline — open by hand'],
  ] as const)(
    "shows the barrier's real outcome (%s) under 'Entry approved - gate opening'",
    async (result, line) => {
      const { user, api } = setUp();
      api.onFaceComparison(aFaceComparison(92.4));
      api.onGrantEntry(
        async () =>
          ({
            ...anEntryLog({ plateNumber: 'KP35XKGP', faceVerified: true, matchScore: 92.4 }),
            barrier: {
              opened: result === 'opened',
              result,
              gateId: '00000000-0000-4000-8000-000000000017',
              decisionId: '00000000-0000-4000-8000-000000000018',
              detail: result === 'opened' ? 'relay 0 on for 1s' : 'No barrier agent is connected.',
              latencyMs: result === 'opened' ? 40 : null,
            },
          }) as EntryLog,
      );

      await start(user);
      await uploadThroughCamera(user, 'Scan Licence Plate');
      await uploadThroughCamera(user, 'Verify driver identity');

      const panel = await screen.findByTestId('approved-panel');
      expect(within(panel).getByText('Entry approved - gate opening')).toBeInTheDocument();
      expect(within(panel).getByTestId('barrier-outcome')).toHaveTextContent(line);
    },
  );
});
