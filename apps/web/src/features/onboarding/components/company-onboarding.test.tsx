import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { CreatedDriver, DriverRecordInput } from '@boomgate/contracts/drivers';
import type { ImportPreview, ImportResult } from '@boomgate/contracts/onboarding';

import { aSession } from '@/testing/data';
import { captureDownloads, restoreDownloadsAfterEach } from '@/testing/downloads';
import { apiError, signedIn } from '@/testing/handlers';
import { createReauthApi } from '@/testing/reauth-api';
import { expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const CSV = 'Driver Name*,Surname*,ID Number*\nSipho,Nkosi,8001015009087\n';

const PREVIEW: ImportPreview = {
  fileName: 'fleet.csv',
  fileType: 'csv',
  totalRows: 3,
  validRows: 2,
  drivers: 2,
  vehicles: 1,
  rows: [
    {
      rowNumber: 2,
      values: { name: 'Sipho', surname: 'Nkosi', idNumber: '8001015009087', plateNumber: 'CA 1' },
      errors: [],
    },
    {
      rowNumber: 3,
      values: { name: 'Thandi', surname: 'Mokoena', idNumber: '8001015009086' },
      errors: [
        {
          field: 'idNumber',
          message: 'This is not a valid South African ID number: please check the digits.',
        },
      ],
    },
    {
      rowNumber: 4,
      values: { name: 'Johan', surname: 'Botha', idNumber: '9001015009085' },
      errors: [],
    },
  ],
};

const RESULT: ImportResult = {
  driversImported: 2,
  vehiclesImported: 1,
  rejected: [{ rowNumber: 3, errors: PREVIEW.rows[1]?.errors ?? [] }],
  summary: '2 drivers and 1 vehicle',
};

function setUp() {
  // jsdom's File does not survive Node's multipart encoding (name and bytes are lost there; the
  // Playwright flow checks them in Chromium): here, that a multipart part "file" was sent.
  const uploads: { url: string; hasFile: boolean }[] = [];
  const record = async (request: Request) => {
    const form = await request.formData();
    uploads.push({ url: new URL(request.url).pathname, hasFile: form.get('file') !== null });
  };
  server.use(
    signedIn(aSession()),
    http.post('/api/onboarding/import/preview', async ({ request }) => {
      await record(request);
      return HttpResponse.json(PREVIEW);
    }),
    http.post('/api/onboarding/import', async ({ request }) => {
      await record(request);
      return HttpResponse.json(RESULT);
    }),
  );
  return { ...renderApp('/onboard/company'), uploads };
}

const fileInput = () => screen.getByLabelText('Drivers and vehicles file');

/** The screen is a lazy chunk: its first load in a busy test run can take a few seconds. */
const LOADED = { timeout: 10_000 };

// Typing and lazy chunks are slow when the machine is busy: room beyond the 5 s default.
describe('company onboarding: bulk upload', { timeout: 20_000 }, () => {
  it('offers the templates, previews every row with its errors, imports and shows the summary', async () => {
    const { user, uploads } = setUp();
    expect(await screen.findByRole('tab', { name: 'Bulk Upload' }, LOADED)).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(screen.getByRole('link', { name: 'CSV Template' })).toHaveAttribute(
      'href',
      '/api/onboarding/template.csv',
    );
    expect(screen.getByRole('link', { name: 'XLSX Template' })).toHaveAttribute(
      'href',
      '/api/onboarding/template.xlsx',
    );
    expect(screen.getByText('CSV or XLSX, up to 10MB')).toBeInTheDocument();

    await user.upload(fileInput(), new File([CSV], 'fleet.csv', { type: 'text/csv' }));

    expect(await screen.findByTestId('preview-summary')).toHaveTextContent(
      'fleet.csv: 2 of 3 rows are ready to import (2 drivers and 1 vehicle). 1 row has errors and will not be imported.',
    );
    const badRow = screen.getByRole('row', { name: /Thandi Mokoena/ });
    expect(within(badRow).getByText('Error')).toBeInTheDocument();
    expect(badRow).toHaveTextContent(
      'ID Number: This is not a valid South African ID number: please check the digits.',
    );
    expect(
      within(screen.getByRole('row', { name: /Sipho Nkosi/ })).getByText('Ready'),
    ).toBeInTheDocument();
    expect(uploads).toEqual([{ url: '/api/onboarding/import/preview', hasFile: true }]);

    await user.click(screen.getByRole('button', { name: 'Import 2 Rows' }));

    const result = await screen.findByTestId('import-result');
    expect(result).toHaveTextContent('2 drivers and 1 vehicle imported.');
    expect(result).toHaveTextContent(
      'Row 3: ID Number: This is not a valid South African ID number: please check the digits.',
    );
    await expectToast('Import Complete', '2 drivers and 1 vehicle imported.');
    expect(uploads).toEqual([
      { url: '/api/onboarding/import/preview', hasFile: true },
      { url: '/api/onboarding/import', hasFile: true },
    ]);
  });

  it('refuses a file of another type or over 10MB before sending it', async () => {
    const { user, uploads } = setUp();
    await screen.findByRole('tab', { name: 'Bulk Upload' }, LOADED);

    const big = new File(['x'], 'big.csv', { type: 'text/csv' });
    Object.defineProperty(big, 'size', { value: 10_485_761 });
    await user.upload(fileInput(), big);
    expect(await screen.findByRole('alert')).toHaveTextContent('The file is larger than 10MB.');
    // The picker's accept filter can be bypassed ("All files"): the screen checks again.
    fireEvent.change(fileInput(), {
      target: { files: [new File(['%PDF'], 'fleet.pdf', { type: 'application/pdf' })] },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose a CSV or XLSX file.');

    expect(uploads).toEqual([]);
  });

  it("shows the server's reason when the file cannot be read", async () => {
    const { user } = setUp();
    server.use(
      http.post('/api/onboarding/import/preview', () =>
        apiError(400, 'INVALID', 'The file is missing the column(s) ID Number.'),
      ),
    );
    await user.upload(
      await screen.findByLabelText('Drivers and vehicles file', {}, LOADED),
      new File([CSV], 'f.csv'),
    );
    expect(await screen.findByText('The file could not be checked')).toBeInTheDocument();
    expect(screen.getByText('The file is missing the column(s) ID Number.')).toBeInTheDocument();
  });
});

describe('company onboarding: individual', { timeout: 20_000 }, () => {
  function setUpIndividual(
    response: () => Response = () => HttpResponse.json({}, { status: 500 }),
  ) {
    const bodies: DriverRecordInput[] = [];
    const view = setUp();
    server.use(
      http.post('/api/onboarding/drivers', async ({ request }) => {
        bodies.push((await request.json()) as DriverRecordInput);
        return response();
      }),
    );
    return { ...view, bodies };
  }

  it('marks required fields and validates them before sending', async () => {
    const { user, bodies } = setUpIndividual();
    await user.click(await screen.findByRole('tab', { name: 'Individual' }, LOADED));
    expect(screen.getByLabelText('Driver Name *')).toBeInTheDocument();
    expect(screen.getByLabelText('Plate Number')).toBeInTheDocument();

    await user.type(screen.getByLabelText('ID Number *'), '8001015009086');
    await user.type(screen.getByLabelText('Phone'), '12345');
    await user.click(screen.getByRole('button', { name: 'Add Driver' }));

    expect(await screen.findByText('Driver name is required.')).toBeInTheDocument();
    expect(screen.getByText('Surname is required.')).toBeInTheDocument();
    expect(
      screen.getByText('This is not a valid South African ID number: please check the digits.'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Enter a South African number, e.g. 082 123 4567 or +27 82 123 4567.'),
    ).toBeInTheDocument();
    expect(bodies).toEqual([]);
  });

  it('sends the normalised record and confirms the driver and vehicle', async () => {
    const created: CreatedDriver = {
      driver: {
        id: crypto.randomUUID(),
        name: 'Sipho',
        surname: 'Nkosi',
        idNumber: '8001015009087',
        phone: '0821234567',
        licenceNumber: null,
        licenceValidTo: null,
        transportCompany: 'Kumba Haulage',
        photo: null,
        licenceImage: null,
        livenessConfidence: null,
        source: 'individual',
        createdAt: new Date().toISOString(),
      },
      vehicle: {
        id: crypto.randomUUID(),
        plateNumber: 'CA123456',
        driverName: 'Sipho Nkosi',
        driverLicense: null,
        company: 'Kumba Haulage',
        driverPhoto: null,
        approvedUntil: '2099-01-31',
        isActive: true,
        hasFaceEnrolment: false,
        createdAt: new Date().toISOString(),
        pendingApproval: null,
      },
    };
    const { user, bodies } = setUpIndividual(() => HttpResponse.json(created, { status: 201 }));
    await user.click(await screen.findByRole('tab', { name: 'Individual' }, LOADED));
    await user.type(screen.getByLabelText('Driver Name *'), ' Sipho ');
    await user.type(screen.getByLabelText('Surname *'), 'Nkosi');
    await user.type(screen.getByLabelText('ID Number *'), '8001015009087');
    await user.type(screen.getByLabelText('Phone'), '+27 82 123 4567');
    await user.type(screen.getByLabelText('Transport Company'), 'Kumba Haulage');
    await user.type(screen.getByLabelText('Plate Number'), 'ca 123-456');
    await user.click(screen.getByRole('button', { name: 'Add Driver' }));

    await expectToast('Driver Added', 'Sipho Nkosi and vehicle CA123456 were added.');
    expect(bodies).toEqual([
      {
        name: 'Sipho',
        surname: 'Nkosi',
        idNumber: '8001015009087',
        phone: '0821234567',
        licenceNumber: null,
        licenceValidTo: null,
        transportCompany: 'Kumba Haulage',
        plateNumber: 'CA123456',
        approvedUntil: null,
        // Issue 21: no trailers (a rigid vehicle).
        trailer1Plate: null,
        trailer1DiscNumber: null,
        trailer1DiscExpiry: null,
        trailer2Plate: null,
        trailer2DiscNumber: null,
        trailer2DiscExpiry: null,
      },
    ]);
    await waitFor(() => expect(screen.getByLabelText('Driver Name *')).toHaveValue(''));
  });

  it("shows the server's message when the driver exists", async () => {
    const { user } = setUpIndividual(() =>
      apiError(409, 'CONFLICT', 'A driver with this ID number is already registered.'),
    );
    await user.click(await screen.findByRole('tab', { name: 'Individual' }, LOADED));
    await user.type(screen.getByLabelText('Driver Name *'), 'Sipho');
    await user.type(screen.getByLabelText('Surname *'), 'Nkosi');
    await user.type(screen.getByLabelText('ID Number *'), '8001015009087');
    await user.click(screen.getByRole('button', { name: 'Add Driver' }));
    await expectToast(
      'Could Not Add Driver',
      'A driver with this ID number is already registered.',
    );
  });
});

describe('company onboarding: drivers export', { timeout: 20_000 }, () => {
  const EXPORT_CSV = 'Driver Name,Surname\nSipho,Nkosi\n';

  restoreDownloadsAfterEach();

  function setUpExport() {
    const reauth = createReauthApi('admin-pass-1');
    let exportCalls = 0;
    server.use(
      signedIn(aSession()),
      ...reauth.handlers,
      http.get('/api/drivers/export.csv', () => {
        exportCalls++;
        return (
          reauth.refusal() ??
          new HttpResponse(EXPORT_CSV, { headers: { 'content-type': 'text/csv; charset=utf-8' } })
        );
      }),
    );
    const saved = captureDownloads();
    return { ...renderApp('/onboard/company'), reauth, saved, exportCalls: () => exportCalls };
  }

  it('asks for the password when the server wants it, shows a wrong one, then saves the file', async () => {
    const { user, reauth, saved, exportCalls } = setUpExport();

    await user.click(await screen.findByRole('button', { name: 'Export Drivers' }, LOADED));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' }, LOADED);
    expect(saved).toEqual([]);

    await user.type(within(dialog).getByLabelText('Password'), 'not-it');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('Password is incorrect')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');

    await user.clear(within(dialog).getByLabelText('Password'));
    await user.type(within(dialog).getByLabelText('Password'), 'admin-pass-1');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    await waitFor(() => expect(saved).toHaveLength(1));
    expect(screen.queryByRole('dialog', { name: 'Confirm your password' })).toBeNull();
    expect(saved[0]?.fileName).toBe('drivers.csv');
    expect(await saved[0]?.blob.text()).toBe(EXPORT_CSV);
    expect(reauth.attempts).toEqual(['not-it', 'admin-pass-1']);
    expect(exportCalls()).toBe(2);
  });

  it('reports a cancelled confirmation once and saves nothing', async () => {
    const { user, saved, exportCalls } = setUpExport();

    await user.click(await screen.findByRole('button', { name: 'Export Drivers' }, LOADED));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' }, LOADED);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await expectToast('Export Failed', 'Password not confirmed: the request was cancelled.');
    expect(screen.queryByRole('dialog', { name: 'Confirm your password' })).toBeNull();
    expect(saved).toEqual([]);
    expect(exportCalls()).toBe(1);
    expect(screen.getByRole('button', { name: 'Export Drivers' })).toBeEnabled();
  });
});
