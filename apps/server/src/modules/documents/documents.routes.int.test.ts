import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Actor } from '@/modules/sessions';
import { aJpegDataUrl } from '@/testing/images';
import { type TestApp, createTestApp } from '@/testing/test-app';

describe('document routes', () => {
  let t: TestApp;
  let photo: string;
  beforeAll(async () => {
    t = await createTestApp();
    photo = await aJpegDataUrl();
  });
  afterAll(() => t.close());

  it('saves each document type and answers with its id', async () => {
    const guard = await t.registerTenant();

    const responses = await Promise.all([
      guard.post('/api/licence-disc', {
        discNumber: 'D1',
        licenceNumber: 'KP35XKGP',
        vehRegisterNo: 'HXV436S',
        discImage: photo,
      }),
      guard.post('/api/identity-document', {
        identityNumber: '8001015009087',
        givenNames: 'Thabo',
        surname: 'Mokoena',
        sourceImageFront: photo,
      }),
      guard.post('/api/drivers-licence', {
        licenceNumber: '0123456789AB',
        nameOnCard: 'T MOKOENA',
        idNumber: '8001015009087',
        sourceImageFront: photo,
      }),
      guard.post('/api/passport', { passportNumber: 'A12345678', passportImage: photo }),
    ]);

    expect(responses.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    for (const response of responses)
      expect(response.json()).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const [disc] = await t.ownerQuery<{
      vehicle_register_no: string;
      image_key: string;
      fields: Record<string, unknown>;
    }>('select vehicle_register_no, image_key, fields from licence_discs where id = $1', [
      responses[0]?.json().id,
    ]);
    expect(disc?.vehicle_register_no).toBe('HXV436S');
    expect(disc?.image_key).toMatch(/\/discs\//);
    expect(disc?.fields).not.toHaveProperty('discImage');
  });

  it('keeps weighbridge tickets with their weight check and lists them newest first', async () => {
    const office = await t.registerTenant();
    await office.post('/api/weighbridge-ticket', {
      ticketNumber: 'WB-1',
      tareWeight: 15220,
      grossWeight: 49880,
      netWeight: 34660,
      trailerRegs: ['TRL1GP', 'TRL2GP'],
    });
    t.clock.advanceMs(1000);
    await office.post('/api/weighbridge-ticket', {
      ticketNumber: 'WB-2',
      tareWeight: '15 220'.replace(' ', ''),
      grossWeight: 49880,
      netWeight: 30000,
      ticketImage: photo,
    });

    const list = (await office.get('/api/weighbridge-tickets')).json();

    expect(
      list.map((ticket: { ticketNumber: string; weightsConsistent: boolean }) => [
        ticket.ticketNumber,
        ticket.weightsConsistent,
      ]),
    ).toEqual([
      ['WB-2', false],
      ['WB-1', true],
    ]);
    expect(list[1]).toMatchObject({ trailerRegs: 'TRL1GP, TRL2GP', tareWeight: 15220 });
  });

  it('lists a ticket with the registration the guard corrected beside the one read (issue 15)', async () => {
    const office = await t.registerTenant();
    const actor = { tenantId: office.body.tenant.id, userId: office.body.user.id } as Actor;
    const { captureId } = await t.modules.captures.service.create(
      actor,
      { image: photo, type: 'weighbridge' },
      async () => ({
        reading: {
          type: 'weighbridge',
          fields: {
            ticketNumber: { value: 'WB-7', confidence: 0.97, source: 'ocr' },
            vehicleReg: { value: 'PP587A0', confidence: 0.62, source: 'ocr' },
          },
          uncertain: ['vehicleReg'],
        },
        result: null,
      }),
    );
    const saved = await office.post('/api/weighbridge-ticket', {
      ticketNumber: 'WB-7',
      vehicleReg: 'PP587AG',
      ticketImageCaptureId: captureId,
      corrections: [
        { captureId, readingType: 'weighbridge', field: 'vehicleReg', typedValue: 'PP587AG' },
      ],
    });
    expect(saved.statusCode).toBe(201);
    await office.post('/api/weighbridge-ticket', { ticketNumber: 'WB-8', vehicleReg: 'AB12CDGP' });

    const list = (await office.get('/api/weighbridge-tickets')).json();

    const byNumber = new Map(
      list.map((ticket: { ticketNumber: string }) => [ticket.ticketNumber, ticket]),
    );
    expect(byNumber.get('WB-8')).toMatchObject({ corrections: [] });
    expect(byNumber.get('WB-7')).toMatchObject({
      vehicleReg: 'PP587AG',
      corrections: [
        {
          field: 'vehicleReg',
          kind: 'corrected',
          readValue: 'PP587A0',
          readConfidence: expect.closeTo(0.62, 5),
          readSource: 'ocr',
          wasUncertain: true,
          typedValue: 'PP587AG',
          correctedBy: { id: office.body.user.id },
          documentId: saved.json().id,
        },
      ],
    });
    // Another organization sees neither the ticket nor its correction.
    const other = await t.registerTenant();
    expect((await other.get('/api/weighbridge-tickets')).json()).toEqual([]);
  });

  it("stores the weight check at the bridge's 20 kg resolution: 20 kg apart agree, 21 kg do not", async () => {
    const office = await t.registerTenant();
    const ticket = (ticketNumber: string, netWeight: number) =>
      office.post('/api/weighbridge-ticket', {
        ticketNumber,
        tareWeight: 15_000,
        grossWeight: 49_500,
        netWeight,
      });
    for (const [ticketNumber, netWeight] of [
      ['WB-EXACT', 34_500],
      ['WB-PLUS-20', 34_520],
      ['WB-MINUS-20', 34_480],
      ['WB-PLUS-21', 34_521],
      ['WB-MINUS-21', 34_479],
    ] as const) {
      expect((await ticket(ticketNumber, netWeight)).statusCode).toBe(201);
      t.clock.advanceMs(1000);
    }

    const list = (await office.get('/api/weighbridge-tickets')).json();

    expect(
      Object.fromEntries(
        list.map((row: { ticketNumber: string; weightsConsistent: boolean }) => [
          row.ticketNumber,
          row.weightsConsistent,
        ]),
      ),
    ).toEqual({
      'WB-EXACT': true,
      'WB-PLUS-20': true,
      'WB-MINUS-20': true,
      'WB-PLUS-21': false,
      'WB-MINUS-21': false,
    });
  });

  it('refuses unknown fields instead of storing them', async () => {
    const guard = await t.registerTenant();

    const response = await guard.post('/api/passport', {
      passportNumber: 'A1',
      tenantId: crypto.randomUUID(),
    });

    expect(response.statusCode).toBe(400);
  });

  it('answers the truck list with an empty list before any camera has sent a read', async () => {
    const guard = await t.registerTenant();

    const response = await guard.get('/api/truck-list');

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });
});
