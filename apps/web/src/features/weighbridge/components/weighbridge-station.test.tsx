import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { i18next } from '@/lib/i18n';
import { uploadThroughCamera } from '@/testing/camera';
import { aSession } from '@/testing/data';
import { A_CAPTURE_ID, aTicket, anEmptyRead, anOcrRead, createGateApi } from '@/testing/gate-api';
import { apiError, signedIn } from '@/testing/handlers';
import { expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const fullTicket = {
  ticketNumber: 'WB-20931',
  site: 'Sishen',
  vehicleReg: 'ND123456',
  trailerRegs: ['ND654321'],
  product: 'Iron ore fines',
  customer: 'ArcelorMittal',
  transporter: 'Imperial Logistics',
  grossWeight: 49_500,
  tareWeight: 15_000,
  netWeight: 34_500,
  sealNumbers: ['S1', 'S2'],
  massCheck: 'ok',
  isPartial: false,
};

function setUp(
  tickets = [aTicket({ ticketNumber: 'WB-1', weightsConsistent: false, netWeight: 1 })],
) {
  const api = createGateApi({ tickets });
  server.use(signedIn(aSession()), ...api.handlers);
  const view = renderApp('/weighbridge');
  return { ...view, api };
}

async function scan(user: ReturnType<typeof setUp>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Scan Ticket' }));
  await uploadThroughCamera(user, 'Scan Weighbridge Ticket');
}

describe('Weighbridge Station', () => {
  it('speaks the chosen language, with weights in its digit grouping', async () => {
    await i18next.changeLanguage('af');
    // The language a signed-in user picks is saved for them on the server.
    server.use(http.patch('/api/auth/preferences', () => HttpResponse.json({ language: 'af' })));
    setUp([aTicket({ ticketNumber: 'WB-2', weightsConsistent: true })]);

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Weegbrugstasie' }),
    ).toBeInTheDocument();
    const [row] = await screen.findAllByTestId('ticket-row');
    expect(within(row!).getByText('Bruto − Tarra = Netto')).toBeInTheDocument();
    // Afrikaans groups thousands with a (non-breaking) space: 49 500 kg.
    expect(row).toHaveTextContent(/49\s500 kg/);
    expect(screen.getByRole('button', { name: 'Skandeer kaartjie' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Kaartjie' })).toBeInTheDocument();
  });

  it('lists recent tickets with the gross − tare = net check', async () => {
    setUp([
      aTicket({ ticketNumber: 'WB-2', weightsConsistent: true }),
      aTicket({ ticketNumber: 'WB-1', weightsConsistent: false }),
      aTicket({ ticketNumber: null, weightsConsistent: null, netWeight: null }),
    ]);

    const rows = await screen.findAllByTestId('ticket-row');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByText('Gross − Tare = Net')).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('49,500 kg');
    expect(within(rows[1]!).getByText('Gross − Tare ≠ Net')).toBeInTheDocument();
  });

  it("shows a ticket's corrected registration beside the one read, with who and when (issue 15)", async () => {
    const correctedAt = '2026-11-27T08:30:00.000Z';
    setUp([
      aTicket({
        ticketNumber: 'WB-7',
        vehicleReg: 'PP587AG',
        corrections: [
          {
            id: crypto.randomUUID(),
            captureId: A_CAPTURE_ID,
            readingType: 'weighbridge',
            field: 'vehicleReg',
            kind: 'corrected',
            readValue: 'PP587A0',
            readConfidence: 0.62,
            readSource: 'ocr',
            wasUncertain: true,
            typedValue: 'PP587AG',
            correctedBy: { id: crypto.randomUUID(), name: 'Gate Guard' },
            correctedAt,
            entryLogId: null,
            documentType: 'weighbridge-tickets',
            documentId: crypto.randomUUID(),
          },
        ],
      }),
      aTicket({ ticketNumber: 'WB-8' }),
    ]);

    const rows = await screen.findAllByTestId('ticket-row');
    expect(within(rows[0]!).getByTestId('ticket-corrections')).toHaveTextContent(
      /^Vehicle Reg read as PP587A0, corrected to PP587AG by Gate Guard, .+\d{2}:\d{2}/,
    );
    expect(within(rows[1]!).queryByTestId('ticket-corrections')).not.toBeInTheDocument();
  });

  it('scans a ticket, shows what was read and saves it', async () => {
    const { user, api } = setUp([]);
    api.onOcr('weighbridge', anOcrRead('weighbridge', fullTicket, { text: 'raw ticket text' }));

    await scan(user);

    const ticket = await screen.findByTestId('extracted-ticket');
    await expectToast('Ticket Scanned', 'Ticket WB-20931 extracted.');
    expect(within(ticket).queryByText('Partial Extraction')).not.toBeInTheDocument();
    // Issue 15: every field is an editable box holding what was read.
    for (const [label, value] of [
      ['Ticket Number', 'WB-20931'],
      ['Site', 'Sishen'],
      ['Vehicle Reg', 'ND123456'],
      ['Trailer Regs', 'ND654321'],
      ['Product', 'Iron ore fines'],
      ['Transporter', 'Imperial Logistics'],
      ['Gross Weight (kg)', '49500'],
      ['Tare Weight (kg)', '15000'],
      ['Net Weight (kg)', '34500'],
      ['Seal Numbers', 'S1, S2'],
    ]) {
      expect(within(ticket).getByLabelText(label!)).toHaveValue(value);
    }
    expect(within(ticket).getByText('Gross − Tare = Net')).toBeInTheDocument();

    await user.click(within(ticket).getByRole('button', { name: 'Save Ticket' }));

    await expectToast('Ticket Saved', 'Ticket WB-20931 has been saved.');
    expect(api.sent('POST', '/api/weighbridge-ticket')[0]!.body).toMatchObject({
      ticketNumber: 'WB-20931',
      vehicleReg: 'ND123456',
      trailerRegs: 'ND654321',
      sealNumbers: 'S1, S2',
      grossWeight: 49_500,
      tareWeight: 15_000,
      netWeight: 34_500,
      rawOcrText: 'raw ticket text',
      // The server stored the image when it read it: the save cites that capture (issue 14).
      ticketImageCaptureId: A_CAPTURE_ID,
      // Nothing typed, nothing uncertain: no corrections.
      corrections: [],
    });
    expect(api.sent('POST', '/api/weighbridge-ticket')[0]!.body).not.toHaveProperty('ticketImage');
    expect(await screen.findAllByTestId('ticket-row')).toHaveLength(1);
    expect(screen.queryByTestId('extracted-ticket')).not.toBeInTheDocument();
  });

  it("says 'Partial Extraction' when no ticket number was read", async () => {
    const { user, api } = setUp([]);
    api.onOcr(
      'weighbridge',
      anOcrRead('weighbridge', { ...fullTicket, ticketNumber: null, netWeight: 30_000 }),
    );

    await scan(user);

    await expectToast('Partial Extraction', 'No ticket number found.');
    const ticket = await screen.findByTestId('extracted-ticket');
    expect(within(ticket).getAllByText('Partial Extraction').length).toBeGreaterThan(0);
    expect(within(ticket).getByText('Gross − Tare ≠ Net')).toBeInTheDocument();
  });

  it("reads fields from extractedText JSON, and says 'Invalid OCR response format' when it is not", async () => {
    const { user, api } = setUp([]);
    api.onOcr(
      'weighbridge',
      anOcrRead(
        'weighbridge',
        {},
        { extractedText: JSON.stringify({ ticketNumber: 'T-9', product: 'Coal' }) },
      ),
    );
    await scan(user);
    const ticket = await screen.findByTestId('extracted-ticket');
    expect(within(ticket).getByLabelText('Ticket Number')).toHaveValue('T-9');

    await user.click(screen.getByRole('button', { name: 'Scan Again' }));
    api.onOcr('weighbridge', anOcrRead('weighbridge', {}, { extractedText: 'TICKET T-9 COAL' }));
    await uploadThroughCamera(user, 'Scan Weighbridge Ticket');

    await expectToast('Processing Failed', 'Invalid OCR response format');
  });

  it("says 'Invalid OCR response format' when the response breaks the contract", async () => {
    const { user } = setUp([]);
    server.use(http.post('/api/ocr', () => HttpResponse.json({ extractedText: 42 })));

    await scan(user);

    await expectToast('Processing Failed', 'Invalid OCR response format');
  });

  it("says 'Processing Failed' with the server's message when reading fails", async () => {
    const { user, api } = setUp([]);
    api.onOcr(
      'weighbridge',
      apiError(503, 'UNAVAILABLE', 'The image reader is busy. Please try again in a moment.'),
    );

    await scan(user);

    await expectToast(
      'Processing Failed',
      'The image reader is busy. Please try again in a moment.',
    );
    expect(screen.getByRole('button', { name: 'Scan Ticket' })).toBeInTheDocument();
  });

  it("says 'No Data Found' when nothing was read", async () => {
    const { user, api } = setUp([]);
    api.onOcr('weighbridge', anEmptyRead('weighbridge'));

    await scan(user);

    await expectToast('No Data Found', 'Please try again with better image quality');
    await waitFor(() => expect(screen.queryByTestId('extracted-ticket')).not.toBeInTheDocument());
  });

  describe('corrections with provenance (issue 15)', () => {
    it('a misread vehicle registration is corrected before saving; both values are sent', async () => {
      const { user, api } = setUp([]);
      api.onOcr('weighbridge', anOcrRead('weighbridge', { ...fullTicket, vehicleReg: 'PP587A0' }));
      await scan(user);
      const ticket = await screen.findByTestId('extracted-ticket');

      const vehicleReg = within(ticket).getByLabelText('Vehicle Reg');
      await user.clear(vehicleReg);
      await user.type(vehicleReg, 'PP587AD');
      expect(within(ticket).getByTestId('reading-field-vehicleReg')).toHaveTextContent(
        'Read: PP587A0',
      );
      await user.click(within(ticket).getByRole('button', { name: 'Save Ticket' }));

      await expectToast('Ticket Saved', 'Ticket WB-20931 has been saved.');
      expect(api.sent('POST', '/api/weighbridge-ticket')[0]!.body).toMatchObject({
        vehicleReg: 'PP587AD',
        corrections: [
          {
            captureId: A_CAPTURE_ID,
            readingType: 'weighbridge',
            field: 'vehicleReg',
            typedValue: 'PP587AD',
          },
        ],
      });
    });

    it('an uncertain field holds the save until it is confirmed, and the confirmation is sent', async () => {
      const { user, api } = setUp([]);
      const read = anOcrRead('weighbridge', fullTicket);
      api.onOcr('weighbridge', {
        ...read,
        reading: read.reading && { ...read.reading, uncertain: ['netWeight'] },
      });
      await scan(user);
      const ticket = await screen.findByTestId('extracted-ticket');

      expect(within(ticket).getByTestId('reading-field-netWeight')).toHaveAttribute(
        'data-uncertain',
        'true',
      );
      const save = within(ticket).getByRole('button', { name: 'Save Ticket' });
      expect(save).toBeDisabled();
      expect(ticket).toHaveTextContent('Confirm or correct the highlighted fields before saving.');

      await user.click(within(ticket).getByRole('button', { name: 'Confirm Net Weight (kg)' }));
      expect(save).toBeEnabled();
      await user.click(save);

      await expectToast('Ticket Saved', 'Ticket WB-20931 has been saved.');
      expect(api.sent('POST', '/api/weighbridge-ticket')[0]!.body).toMatchObject({
        netWeight: 34_500,
        corrections: [{ field: 'netWeight', typedValue: '34500', captureId: A_CAPTURE_ID }],
      });
    });

    it("offers 'Enter manually' after nothing was read, and saves what was typed", async () => {
      const { user, api } = setUp([]);
      api.onOcr('weighbridge', anEmptyRead('weighbridge'));
      await scan(user);
      await expectToast('No Data Found', 'Please try again with better image quality');

      await user.click(await screen.findByRole('button', { name: 'Enter manually' }));
      const ticket = await screen.findByTestId('extracted-ticket');
      expect(within(ticket).getByTestId('reading-field-ticketNumber')).toHaveTextContent(
        'Not read: enter manually.',
      );
      await user.type(within(ticket).getByLabelText('Ticket Number'), 'WB-7');
      await user.type(within(ticket).getByLabelText('Vehicle Reg'), 'ND123456');
      await user.click(within(ticket).getByRole('button', { name: 'Save Ticket' }));

      await expectToast('Ticket Saved', 'Ticket WB-7 has been saved.');
      const body = api.sent('POST', '/api/weighbridge-ticket')[0]!.body;
      expect(body).toMatchObject({
        ticketNumber: 'WB-7',
        vehicleReg: 'ND123456',
        corrections: [
          {
            captureId: null,
            readingType: 'weighbridge',
            field: 'ticketNumber',
            typedValue: 'WB-7',
          },
          { captureId: null, field: 'vehicleReg', typedValue: 'ND123456' },
        ],
      });
      expect(body).not.toHaveProperty('ticketImage');
    });
  });
});
