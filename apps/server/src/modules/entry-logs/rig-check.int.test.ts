import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

describe('truck combinations (issue 21)', () => {
  let t: TestApp;
  let admin: Session;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.registerTenant();
    const rig = await admin.post('/api/approved-vehicles', {
      plateNumber: 'HORSE1GP',
      driverName: 'Sipho Nkosi',
      trailers: [
        { plateNumber: 'tr 1 gp', discNumber: 'D-1', discExpiry: '2099-01-31' },
        { plateNumber: 'TR2GP', discExpiry: '2020-01-31' },
      ],
    });
    expect(rig.statusCode, rig.body).toBe(201);
  });
  afterAll(() => t.close());

  const grant = (body: Record<string, unknown>) =>
    admin.post('/api/auto-gate/grant-entry', {
      category: 'contracted',
      plateNumber: 'HORSE1GP',
      entryGranted: true,
      ...body,
    });

  it('registers a rig with its trailers and lists them', async () => {
    const listed = (await admin.get('/api/approved-vehicles')).json<
      { plateNumber: string; trailers: unknown }[]
    >();
    expect(listed.find((vehicle) => vehicle.plateNumber === 'HORSE1GP')?.trailers).toEqual([
      { plateNumber: 'TR1GP', discNumber: 'D-1', discExpiry: '2099-01-31' },
      { plateNumber: 'TR2GP', discNumber: null, discExpiry: '2020-01-31' },
    ]);
  });

  it('refuses more than two trailers or one plate twice with 400', async () => {
    for (const trailers of [
      [{ plateNumber: 'A1GP' }, { plateNumber: 'A2GP' }, { plateNumber: 'A3GP' }],
      [{ plateNumber: 'A1GP' }, { plateNumber: 'a 1 gp' }],
      [{ plateNumber: 'A1GP', discExpiry: 'soon' }],
    ]) {
      const response = await admin.post('/api/approved-vehicles', {
        plateNumber: 'HORSE9GP',
        driverName: 'X',
        trailers,
      });
      expect(response.statusCode, JSON.stringify(trailers)).toBe(400);
      expect(response.json().error.code).toBe('INVALID');
    }
  });

  it('passes a rig whose trailers are on it with valid discs, and stores the combination', async () => {
    const response = await grant({ trailerPlates: ['TR1GP'] });
    expect(response.json()).toMatchObject({
      entryGranted: true,
      trailerPlates: ['TR1GP'],
      warnings: [],
    });
  });

  it('refuses a trailer that is not on the rig, or whose disc has expired', async () => {
    const unknown = await grant({ trailerPlates: ['TR1GP', 'OTHER1GP'] });
    expect(unknown.json()).toMatchObject({
      entryGranted: false,
      refusalReason: 'rig_mismatch',
      warnings: [
        {
          code: 'rig_check',
          severity: 'critical',
          message: "Trailer OTHER1GP is not on this vehicle's rig.",
          fields: ['trailerPlates'],
        },
      ],
    });
    const expired = await grant({ trailerPlates: ['TR2GP'] });
    expect(expired.json()).toMatchObject({
      entryGranted: false,
      refusalReason: 'rig_mismatch',
      warnings: [expect.objectContaining({ message: expect.stringContaining('2020-01-31') })],
    });
  });

  it('checks each cited trailer disc (trailerLicenceDiscIds) and stores them on the entry', async () => {
    const disc = async (licenceNumber: string, dateOfExpiry: string) => {
      const saved = await admin.post('/api/licence-disc', { licenceNumber, dateOfExpiry });
      expect(saved.statusCode, saved.body).toBe(201);
      return saved.json<{ id: string }>().id;
    };
    const valid = await disc('TR1GP', '2099-01-31');
    const passed = await grant({ trailerPlates: ['TR1GP'], trailerLicenceDiscIds: [valid] });
    expect(passed.json()).toMatchObject({
      entryGranted: true,
      trailerLicenceDiscIds: [valid],
      warnings: [],
    });

    const expired = await grant({
      trailerPlates: ['TR1GP'],
      trailerLicenceDiscIds: [await disc('TR1GP', '2021-03-31')],
    });
    expect(expired.json()).toMatchObject({
      entryGranted: false,
      refusalReason: 'rig_mismatch',
      warnings: [expect.objectContaining({ message: 'Trailer disc TR1GP expired on 2021-03-31.' })],
    });
    const stranger = await grant({
      trailerPlates: ['TR1GP'],
      trailerLicenceDiscIds: [await disc('STRANGER7GP', '2099-01-31')],
    });
    expect(stranger.json()).toMatchObject({
      entryGranted: false,
      refusalReason: 'rig_mismatch',
      warnings: [expect.objectContaining({ fields: ['trailerLicenceDiscIds'] })],
    });

    // Another organization's disc, or a disc cited twice, is bad input.
    const other = await t.registerTenant();
    const foreign = (
      await other.post('/api/licence-disc', { licenceNumber: 'TR1GP', dateOfExpiry: '2099-01-31' })
    ).json<{ id: string }>().id;
    for (const trailerLicenceDiscIds of [[foreign], [valid, valid], [valid, valid, valid]]) {
      const response = await grant({ trailerPlates: ['TR1GP'], trailerLicenceDiscIds });
      expect(response.statusCode, JSON.stringify(trailerLicenceDiscIds)).toBe(400);
      expect(response.json().error.code).toBe('INVALID');
    }
  });

  it('warns when the weighbridge ticket names a trailer the rig does not have', async () => {
    const ticket = await admin.post('/api/weighbridge-ticket', {
      ticketNumber: 'T-RIG',
      vehicleReg: 'HORSE1GP',
      trailerRegs: ['TR1GP', 'STRANGER7GP'],
    });
    expect(ticket.statusCode).toBe(201);

    const response = await grant({
      trailerPlates: ['TR1GP'],
      weighbridgeTicketId: ticket.json().id,
    });

    expect(response.json()).toMatchObject({
      entryGranted: true,
      warnings: [
        {
          code: 'rig_check',
          severity: 'warning',
          message: expect.stringContaining('STRANGER7GP'),
          fields: ['weighbridgeTicket.trailerRegs'],
        },
      ],
    });
  });

  it('screens trailer plates against the watchlist', async () => {
    await admin.post('/api/watchlist', {
      kind: 'plate',
      value: 'TR1GP',
      reason: 'Trailer reported stolen',
      severity: 'block',
    });
    const response = await grant({ trailerPlates: ['TR1GP'] });
    expect(response.json()).toMatchObject({ entryGranted: false, refusalReason: 'watchlist' });
    await admin.get('/api/watchlist').then(async (list) => {
      for (const entry of list.json<{ id: string }[]>())
        await admin.delete(`/api/watchlist/${entry.id}`);
    });
  });
});
