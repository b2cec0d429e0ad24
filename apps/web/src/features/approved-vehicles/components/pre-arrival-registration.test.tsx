import { screen, waitFor } from '@testing-library/react';
import { addMonths, format } from 'date-fns';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { uploadThroughCamera } from '@/testing/camera';
import { aSession } from '@/testing/data';
import { anApprovedVehicle, anEmptyRead, anOcrRead, createGateApi } from '@/testing/gate-api';
import { apiError, signedIn } from '@/testing/handlers';
import { currentPath, expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const CONSENT_LABEL =
  'The driver agrees to their photo being used to verify their identity at the gate';

function setUp(path = '/pre-arrival', vehicles = [anApprovedVehicle({ plateNumber: 'ND123456' })]) {
  const api = createGateApi({ vehicles });
  server.use(signedIn(aSession()), ...api.handlers);
  api.onOcr('face', anOcrRead('face', { faceFound: true, qualityOk: true }, { source: 'face' }));
  const view = renderApp(path);
  return { ...view, api };
}

async function fillForm(
  user: ReturnType<typeof setUp>['user'],
  { photo = true, consent = true } = {},
) {
  await user.type(await screen.findByLabelText('Plate Number'), ' kp 35-xk gp ');
  await user.type(screen.getByLabelText('Driver Name'), '  Sipho Nkosi  ');
  await user.type(screen.getByLabelText('Company (optional)'), ' Kumba Haulage ');
  if (photo) {
    await user.click(screen.getByRole('button', { name: 'Capture Driver Photo' }));
    await uploadThroughCamera(user, 'Driver Photo');
    expect(await screen.findByRole('img', { name: 'The driver, as captured' })).toBeInTheDocument();
  }
  if (consent) await user.click(screen.getByRole('checkbox', { name: CONSENT_LABEL }));
}

const submit = () => screen.getByRole('button', { name: 'Register Vehicle' });

describe('Pre-Arrival Registration', () => {
  it('prefills the plate from Auto Gate and says so', async () => {
    setUp('/pre-arrival?plate=CA123456');

    expect(await screen.findByLabelText('Plate Number')).toHaveValue('CA123456');
    await expectToast('Plate Number Auto-Filled', 'Plate number transferred from Auto Gate');
  });

  it('starts empty without a plate, with the approval date three months ahead', async () => {
    setUp();

    expect(await screen.findByLabelText('Plate Number')).toHaveValue('');
    expect(screen.getByLabelText('Approval Date')).toHaveValue(
      format(addMonths(new Date(), 3), 'yyyy-MM-dd'),
    );
    expect(screen.getByLabelText('Driver Licence (optional)')).toBeInTheDocument();
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
  });

  it('registers the vehicle with a normalised plate, trimmed names, nulls and consent', async () => {
    const { user, api } = setUp('/pre-arrival?plate=X');
    await screen.findByLabelText('Plate Number');
    await user.clear(screen.getByLabelText('Plate Number'));

    await fillForm(user);
    await user.click(submit());

    await expectToast('Vehicle Registered', 'KP 35 XK GP is approved for entry.');
    const [sent] = api.sent('POST', '/api/approved-vehicles');
    expect(sent!.body).toEqual({
      plateNumber: 'KP35XKGP',
      driverName: 'Sipho Nkosi',
      driverLicense: null,
      company: 'Kumba Haulage',
      driverPhoto: expect.stringMatching(/^data:image\/jpeg;base64,/),
      approvedUntil: format(addMonths(new Date(), 3), 'yyyy-MM-dd'),
      isActive: true,
      biometricConsent: true,
      trailers: [],
    });
    // The form starts over for the next vehicle, without the plate from Auto Gate.
    await waitFor(() => expect(screen.getByLabelText('Plate Number')).toHaveValue(''));
    expect(window.location.search).toBe('');
    expect(currentPath()).toBe('/pre-arrival');
  });

  it("registers a rig with its trailers' plates and discs (issue 21)", async () => {
    const { user, api } = setUp();
    await fillForm(user);

    await user.click(screen.getByRole('button', { name: 'Add Trailer' }));
    await user.click(screen.getByRole('button', { name: 'Add Trailer' }));
    expect(screen.queryByRole('button', { name: 'Add Trailer' })).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Trailer 1 Plate' }), 'tr 11 cd gp');
    await user.type(screen.getAllByLabelText('Disc Number')[0]!, 'MVL1CC42');
    await user.type(screen.getAllByLabelText('Disc Expiry')[0]!, '2027-03-31');
    await user.type(screen.getAllByLabelText('Disc Number')[1]!, 'D2');
    await user.click(submit());
    await expectToast('Trailer Plate Required', "Trailer 2 needs the trailer's plate.");
    expect(api.sent('POST', '/api/approved-vehicles')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Remove Trailer 2' }));
    await user.click(submit());

    await expectToast('Vehicle Registered', 'KP 35 XK GP is approved for entry.');
    const [sent] = api.sent('POST', '/api/approved-vehicles');
    expect(sent!.body).toMatchObject({
      plateNumber: 'KP35XKGP',
      trailers: [{ plateNumber: 'TR11CDGP', discNumber: 'MVL1CC42', discExpiry: '2027-03-31' }],
    });
    await waitFor(() =>
      expect(screen.queryByRole('textbox', { name: 'Trailer 1 Plate' })).not.toBeInTheDocument(),
    );
  });

  it("asks for the plate and the driver name first: 'Missing Information'", async () => {
    const { user, api } = setUp();
    await screen.findByLabelText('Plate Number');

    await user.click(submit());

    await expectToast('Missing Information', 'Plate number and driver name are required');
    expect(api.sent('POST', '/api/approved-vehicles')).toHaveLength(0);
  });

  it("requires the driver photo: 'Driver Photo Required'", async () => {
    const { user, api } = setUp();
    await fillForm(user, { photo: false });

    await user.click(submit());

    await expectToast(
      'Driver Photo Required',
      'Please capture driver photo for facial recognition',
    );
    expect(api.sent('POST', '/api/approved-vehicles')).toHaveLength(0);
  });

  it("blocks the photo until the driver's consent is ticked", async () => {
    const { user, api } = setUp();
    await fillForm(user, { consent: false });

    await user.click(submit());

    await expectToast('Consent Required');
    expect(api.sent('POST', '/api/approved-vehicles')).toHaveLength(0);
  });

  it('shows the server message for a plate already registered', async () => {
    const { user } = setUp('/pre-arrival', [anApprovedVehicle({ plateNumber: 'KP35XKGP' })]);
    await fillForm(user);

    await user.click(submit());

    await expectToast('Registration Failed', 'Vehicle KP35XKGP is already registered.');
    expect(screen.getByLabelText('Driver Name')).toHaveValue('  Sipho Nkosi  ');
  });

  it("falls back to 'Failed to register vehicle'", async () => {
    const { user } = setUp();
    server.use(
      http.post('/api/approved-vehicles', () => new HttpResponse('oops', { status: 502 })),
    );
    await fillForm(user);

    await user.click(submit());

    await expectToast('Registration Failed', 'Failed to register vehicle');
  });

  describe('the driver photo check', () => {
    it('says when the face engine found a usable face', async () => {
      const { user, api } = setUp();
      await fillForm(user);

      expect(
        await screen.findByText('Face found: suitable for facial recognition'),
      ).toBeInTheDocument();
      const [check] = api.sent('POST', '/api/ocr');
      expect(check!.body).toEqual({
        image: expect.stringMatching(/^data:image\/jpeg;base64,/),
        type: 'face',
      });
    });

    it('warns about a poor photo but still registers the vehicle', async () => {
      const { user, api } = setUp();
      api.onOcr('face', { ...anEmptyRead('face', 'The face is too small.'), source: 'face' });
      await fillForm(user);

      expect(await screen.findByRole('alert')).toHaveTextContent('The face is too small.');
      await user.click(submit());
      await expectToast('Vehicle Registered');
    });

    it('warns when no face was found (422)', async () => {
      const { user, api } = setUp();
      api.onOcr('face', apiError(422, 'UNPROCESSABLE', 'No face found in the photo.'));
      await fillForm(user);

      expect(await screen.findByRole('alert')).toHaveTextContent('No face found in the photo.');
    });
  });
});
