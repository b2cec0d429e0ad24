import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { passesLuhn } from '@boomgate/contracts/sa-id-number';

import { SA_ID_NUMBER } from '@/platform/sealing';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

/** A valid SA ID number (Luhn check digit) born on 1 January 1985, with `sequence`. */
function anIdNumber(sequence: number): string {
  const base = `850101${String(5000 + sequence).padStart(4, '0')}08`;
  const check = [...Array(10).keys()].find((digit) => passesLuhn(`${base}${digit}`));
  return `${base}${check}`;
}

const DAY_MS = 86_400_000;

describe("GET /api/approved-vehicles/plate/{plate}: the linked driver's induction", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A driver and their vehicle, the way company onboarding (individual tab) creates them. */
  async function onboard(session: Session, idNumber: string, plateNumber: string) {
    const response = await session.post('/api/onboarding/drivers', {
      name: 'Sipho',
      surname: 'Nkosi',
      idNumber,
      phone: '0821234567',
      plateNumber,
      transportCompany: 'Kumba Haulage',
    });
    expect(response.statusCode, response.body).toBe(201);
  }

  /** The driver watches a 4-second video to the end and answers its one question right. */
  async function passInduction(session: Session, idNumber: string) {
    const video = await session.post('/api/safety-videos', {
      title: 'Site safety',
      passScore: 100,
      questions: [
        { question: 'Where do you walk?', options: ['Road', 'Walkway'], correctIndex: 1 },
      ],
      video: { kind: 'url', url: 'https://videos.example.com/safety.mp4', durationSeconds: 4 },
    });
    expect(video.statusCode, video.body).toBe(201);
    const assignment = await session.post('/api/induction/assignments', {
      videoId: video.json().id,
      driverName: 'Sipho Nkosi',
      driverIdNumber: idNumber,
    });
    expect(assignment.statusCode, assignment.body).toBe(201);
    const assignmentId = assignment.json<{ id: string }>().id;
    for (const positionSeconds of [0, 2, 4]) {
      if (positionSeconds > 0) t.clock.advanceMs(2000);
      await session.post('/api/induction/progress', { assignmentId, positionSeconds });
    }
    const result = await session.post('/api/induction/submit', { assignmentId, responses: [1] });
    expect(result.json()).toMatchObject({ passed: true });
    return t.clock.now();
  }

  it('answers valid, none or null (no linked driver), never with the ID number', async () => {
    const acme = await t.registerTenant();
    const guard = await t.createSignedInUser(acme, 'security_guard');
    const inducted = anIdNumber(1);
    const notInducted = anIdNumber(2);
    await onboard(acme, inducted, 'KN 11 AB GP');
    await onboard(acme, notInducted, 'KN22ABGP');
    const preRegistered = await acme.post('/api/approved-vehicles', {
      plateNumber: 'KN33ABGP',
      driverName: 'Walk-in Driver',
    });
    expect(preRegistered.statusCode).toBe(201);
    const passedAt = await passInduction(acme, inducted);

    const valid = await guard.get('/api/approved-vehicles/plate/kn-11-ab-gp');
    const none = await guard.get('/api/approved-vehicles/plate/KN22ABGP');
    const unlinked = await guard.get('/api/approved-vehicles/plate/KN33ABGP');

    expect(valid.statusCode).toBe(200);
    expect(valid.json()).toMatchObject({
      plateNumber: 'KN11ABGP',
      driverName: 'Sipho Nkosi',
      isActive: true,
      induction: {
        status: 'valid',
        passedAt: passedAt.toISOString(),
        validUntil: new Date(passedAt.getTime() + 365 * DAY_MS).toISOString(),
      },
    });
    expect(none.json().induction).toEqual({ status: 'none', passedAt: null, validUntil: null });
    expect(unlinked.json()).toMatchObject({ driverName: 'Walk-in Driver', induction: null });
    for (const response of [valid, none, unlinked]) {
      expect(response.body).not.toContain(inducted);
      expect(response.body).not.toContain(notInducted);
      expect(response.body).not.toMatch(/driverId|idNumber/);
    }
  });

  it("never shows another tenant's driver: its pass, plate or record", async () => {
    const acme = await t.registerTenant();
    const other = await t.registerTenant();
    const idNumber = anIdNumber(3);
    await onboard(acme, idNumber, 'TN44ABGP');
    await passInduction(acme, idNumber);
    // The same person at another organization, with a vehicle of their own there.
    await onboard(other, idNumber, 'TN55ABGP');

    const ownLookup = await other.get('/api/approved-vehicles/plate/TN55ABGP');
    const acmePlate = await other.get('/api/approved-vehicles/plate/TN44ABGP');
    // ID numbers are sealed (issue 26): the driver is found by the keyed hash.
    const [acmeDriver] = await t.ownerQuery<{ id: string }>(
      'select id from drivers where tenant_id = $1 and id_number_hash = $2',
      [
        acme.body.tenant.id,
        await t.modules.keys.keyring.index(acme.body.tenant.id, SA_ID_NUMBER, idNumber),
      ],
    );
    // The key includes tenant_id: a vehicle cannot even name another tenant's driver. Awaited
    // here, so its rejection is never left unhandled while the lookups below run.
    await expect(
      t.ownerQuery(
        `update approved_vehicles set driver_id = $2 where tenant_id = $1 and plate_number = 'TN55ABGP'`,
        [other.body.tenant.id, acmeDriver?.id],
      ),
    ).rejects.toMatchObject({ code: '23503' });

    expect((await acme.get('/api/approved-vehicles/plate/TN44ABGP')).json().induction.status).toBe(
      'valid',
    );
    expect(ownLookup.json().induction).toEqual({
      status: 'none',
      passedAt: null,
      validUntil: null,
    });
    expect(acmePlate.statusCode).toBe(404);
  });

  // Last in this file: a year later every session here has expired, so sign in again.
  it('answers expired once the validity period has passed', async () => {
    const acme = await t.registerTenant();
    const idNumber = anIdNumber(4);
    await onboard(acme, idNumber, 'EX66ABGP');
    const passedAt = await passInduction(acme, idNumber);

    t.clock.advanceMs(366 * DAY_MS);
    const later = await t.login(acme.body.user.username, acme.password);
    const response = await later.get('/api/approved-vehicles/plate/EX66ABGP');

    expect(response.json().induction).toEqual({
      status: 'expired',
      passedAt: passedAt.toISOString(),
      validUntil: new Date(passedAt.getTime() + 365 * DAY_MS).toISOString(),
    });
  });
});
