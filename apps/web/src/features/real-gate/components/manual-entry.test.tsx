import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { uploadThroughCamera } from '@/testing/camera';
import { aSession } from '@/testing/data';
import {
  anApprovedVehicle,
  anEmptyRead,
  anOcrRead,
  A_CAPTURE_ID,
  createGateApi,
} from '@/testing/gate-api';
import { apiError, signedIn } from '@/testing/handlers';
import enRealGate from '@/locales/en/realGate.json';
import { renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

import type { StepId } from './real-gate-machine';

/**
 * Issue 15: every Real Gate step that can fail offers "Enter manually"; what the guard types goes
 * with the entry as corrections of the step's reading (citing the failed read's capture when the
 * server stored one).
 */
const step = (id: StepId) => screen.getByTestId(`step-${id}`);
const statusOf = (id: StepId) => step(id).getAttribute('data-status');

function setUp() {
  const api = createGateApi({ vehicles: [anApprovedVehicle({ plateNumber: 'KP35XKGP' })] });
  server.use(signedIn(aSession({ user: { role: 'security_guard' } })), ...api.handlers);
  api.onOcr(
    'plate',
    anOcrRead('plate', {}, { plateNumber: 'KP35XKGP', displayPlate: 'KP 35 XK GP' }),
  );
  api.onOcr('face', anOcrRead('face', { faceFound: true, qualityOk: true }, { source: 'face' }));
  api.onOcr(
    'id',
    anOcrRead('id', { identityNumber: '8001015009087', givenNames: 'Thabo', surname: 'Mokoena' }),
  );
  const { user } = renderApp('/real-gate');
  return { api, user };
}

async function capture(user: UserEvent, id: StepId, button?: string) {
  const { title, cameraTitle } = enRealGate.steps[id as Exclude<StepId, 'complete'>];
  await user.click(within(step(id)).getByRole('button', { name: button ?? `Capture ${title}` }));
  await uploadThroughCamera(user, cameraTitle);
  await waitFor(() => expect(screen.queryByRole('dialog', { name: cameraTitle })).toBeNull());
  await waitFor(() => expect(statusOf(id)).not.toBe('processing'));
}

/** Opens the failed step's manual entry, types `values` by label and saves. */
async function enterManually(user: UserEvent, id: StepId, values: Record<string, string>) {
  expect(statusOf(id)).toBe('failed');
  await user.click(within(step(id)).getByRole('button', { name: 'Enter manually' }));
  const form = within(step(id)).getByTestId(`manual-entry-${id}`);
  const save = within(form).getByRole('button', { name: 'Save' });
  // The key field (the first) is required.
  expect(save).toBeDisabled();
  for (const [label, value] of Object.entries(values))
    await user.type(within(form).getByLabelText(label), value);
  await user.click(save);
  expect(statusOf(id)).toBe('success');
}

describe('Real Gate: Enter manually', () => {
  it('completes failed disc, licence, passport and ticket steps with typed values sent as corrections', async () => {
    const { api, user } = setUp();
    await screen.findByRole('heading', { level: 1, name: 'Real Gate Entry' });
    await capture(user, 'plate');

    // The disc is unread: retry, skip or type it.
    api.onOcr('disk', anEmptyRead('disk'));
    await capture(user, 'disc');
    expect(within(step('disc')).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(within(step('disc')).getByRole('button', { name: 'Skip' })).toBeInTheDocument();
    await enterManually(user, 'disc', {
      'Licence Number': 'KP35XKGP',
      'Date of Expiry': '2027-03-31',
    });
    const disc = within(step('disc')).getByTestId('manual-summary');
    expect(disc).toHaveTextContent('Licence Number: KP35XKGP');
    expect(disc).toHaveTextContent('Entered manually');
    expect(api.sent('POST', '/api/licence-disc')).toHaveLength(0);

    await capture(user, 'face');
    await capture(user, 'id');

    // The licence and passport reads fail outright (no capture stored).
    api.onOcr('license', apiError(503, 'UNAVAILABLE', 'The image reader is busy.'));
    await capture(user, 'licence');
    await enterManually(user, 'licence', { 'Licence Number': '40170000ABCD' });
    api.onOcr('passport', apiError(503, 'UNAVAILABLE', 'The image reader is busy.'));
    await capture(user, 'passport');
    await enterManually(user, 'passport', { 'Passport Number': 'ZE000509' });

    await user.click(within(step('permits')).getByRole('button', { name: 'Capture Permit' }));
    await uploadThroughCamera(user, 'Capture Permit');
    await user.click(
      await within(step('permits')).findByRole('button', { name: 'Continue with 1 permit(s)' }),
    );

    // The ticket is read but has no ticket number: the typed values cite that capture.
    api.onOcr('weighbridge', anOcrRead('weighbridge', { ticketNumber: null, product: 'Coal' }));
    await capture(user, 'ticket');
    await enterManually(user, 'ticket', { 'Ticket Number': 'WB-77', Transporter: 'Imperial' });
    expect(api.sent('POST', '/api/weighbridge-ticket')).toHaveLength(0);

    await user.click(within(step('complete')).getByRole('button', { name: 'Grant Entry' }));
    await waitFor(() => expect(api.sent('POST', '/api/auto-gate/grant-entry')).toHaveLength(1));
    const body = api.sent('POST', '/api/auto-gate/grant-entry')[0]!.body as {
      corrections: unknown[];
    };
    expect(body).toMatchObject({
      driverPassportNumber: 'ZE000509',
      transportName: 'Imperial',
      vehicleLicenceDiscId: null,
      weighbridgeTicketId: null,
    });
    expect(body.corrections).toEqual(
      expect.arrayContaining([
        { captureId: null, readingType: 'disk', field: 'licenceNumber', typedValue: 'KP35XKGP' },
        { captureId: null, readingType: 'disk', field: 'dateOfExpiry', typedValue: '2027-03-31' },
        {
          captureId: null,
          readingType: 'license',
          field: 'licenceNumber',
          typedValue: '40170000ABCD',
        },
        {
          captureId: null,
          readingType: 'passport',
          field: 'passportNumber',
          typedValue: 'ZE000509',
        },
        {
          captureId: A_CAPTURE_ID,
          readingType: 'weighbridge',
          field: 'ticketNumber',
          typedValue: 'WB-77',
        },
        {
          captureId: A_CAPTURE_ID,
          readingType: 'weighbridge',
          field: 'transporter',
          typedValue: 'Imperial',
        },
      ]),
    );
    // Blank fields are not sent.
    expect(body.corrections).not.toContainEqual(
      expect.objectContaining({ readingType: 'disk', field: 'vehicleRegisterNo' }),
    );
  });

  it('carries a typed ID document to the driver form, which sends its fields once', async () => {
    const { api, user } = setUp();
    await screen.findByRole('heading', { level: 1, name: 'Real Gate Entry' });
    await capture(user, 'plate');
    api.onOcr('disk', anEmptyRead('disk'));
    await capture(user, 'disc');
    await user.click(within(step('disc')).getByRole('button', { name: 'Skip' }));
    await capture(user, 'face');
    api.onOcr('id', apiError(503, 'UNAVAILABLE', 'The image reader is busy.'));
    await capture(user, 'id');
    await enterManually(user, 'id', {
      'Identity Number': '8001015009087',
      'Given Names': 'Sipho',
      Surname: 'Nkosi',
    });
    api.onOcr('license', anEmptyRead('license'));
    await capture(user, 'licence');
    await user.click(within(step('passport')).getByRole('button', { name: 'Skip' }));
    await user.click(within(step('permits')).getByRole('button', { name: 'Capture Permit' }));
    await uploadThroughCamera(user, 'Capture Permit');
    await user.click(
      await within(step('permits')).findByRole('button', { name: 'Continue with 1 permit(s)' }),
    );
    await user.click(within(step('ticket')).getByRole('button', { name: 'Skip' }));

    const form = within(step('complete')).getByTestId('driver-details-form');
    expect(within(form).getByLabelText('ID number')).toHaveValue('8001015009087');
    expect(within(form).getByLabelText('Surname')).toHaveValue('Nkosi');

    await user.click(within(step('complete')).getByRole('button', { name: 'Grant Entry' }));
    await waitFor(() => expect(api.sent('POST', '/api/auto-gate/grant-entry')).toHaveLength(1));
    const body = api.sent('POST', '/api/auto-gate/grant-entry')[0]!.body as {
      corrections: { readingType: string; field: string }[];
    };
    expect(body).toMatchObject({
      driverIdNumber: '8001015009087',
      driverName: 'Sipho',
      driverSurname: 'Nkosi',
      identityDocumentId: null,
    });
    const idFields = body.corrections.filter((c) => c.readingType === 'id').map((c) => c.field);
    expect(idFields.sort()).toEqual(['givenNames', 'identityNumber', 'surname']);
  });

  it('cancels back to retry and skip, and offers no manual entry before a step fails', async () => {
    const { api, user } = setUp();
    await screen.findByRole('heading', { level: 1, name: 'Real Gate Entry' });
    await capture(user, 'plate');
    expect(
      within(step('disc')).queryByRole('button', { name: 'Enter manually' }),
    ).not.toBeInTheDocument();
    api.onOcr('disk', anEmptyRead('disk'));
    await capture(user, 'disc');

    await user.click(within(step('disc')).getByRole('button', { name: 'Enter manually' }));
    await user.click(within(step('disc')).getByRole('button', { name: 'Cancel' }));

    expect(statusOf('disc')).toBe('failed');
    expect(within(step('disc')).queryByTestId('manual-entry-disc')).not.toBeInTheDocument();
    expect(within(step('disc')).getByRole('button', { name: 'Enter manually' })).toBeVisible();
  });
});
