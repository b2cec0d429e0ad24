import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

describe('GET /api/truck-list', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(new Date('2026-03-04T10:00:00Z')); // 12:00 at the site (SAST)
  });
  afterAll(() => t.close());

  /** Camera reads as the anpr module files them (that path has its own tests). */
  const aRead = (admin: Session, timestamp: string, truckNumber: string | null, plate: string) =>
    t.ownerQuery(
      `insert into truck_list_entries (tenant_id, id, "timestamp", truck_number, plate_number,
         category, transport_name)
       values ($1, gen_random_uuid(), $2, $3, $4, 'other', 'Karoo Haulage')`,
      [admin.body.tenant.id, timestamp, truckNumber, plate],
    );

  it('answers a page newest first, the next one by X-Next-Cursor, and the cards over every read', async () => {
    const admin = await t.registerTenant();
    await aRead(admin, '2026-03-02T08:00:00Z', 'ORD-1', 'AA11BBGP');
    await aRead(admin, '2026-03-03T22:30:00Z', '  ', 'CC22DDGP'); // 00:30 on the 4th at the site
    await aRead(admin, '2026-03-04T09:00:00Z', null, 'EE33FFGP');

    const first = await admin.get('/api/truck-list?limit=2');
    const next = String(first.headers['x-next-cursor']);
    const second = await admin.get(`/api/truck-list?limit=2&cursor=${next}`);

    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual([
      {
        id: expect.any(String),
        timestamp: '2026-03-04T09:00:00.000Z',
        truckNumber: null,
        plateNumber: 'EE33FFGP',
        category: 'other',
        transportName: 'Karoo Haulage',
        entryLogId: null,
        trailerPlates: [],
      },
      expect.objectContaining({ plateNumber: 'CC22DDGP', truckNumber: '  ' }),
    ]);
    expect(second.json<{ plateNumber: string }[]>().map((r) => r.plateNumber)).toEqual([
      'AA11BBGP',
    ]);
    expect(second.headers['x-next-cursor']).toBeUndefined();
    expect(first.headers).toMatchObject({
      'x-total-count': '3',
      'x-with-order-number-count': '1',
      'x-today-count': '2',
    });
  });

  /** A gate entry of `plate` at `timestamp`, as the entry-logs module stores it. */
  const anEntry = async (
    admin: Session,
    timestamp: string,
    plate: string,
    trailerPlates: string[] = [],
  ) => {
    const [row] = await t.ownerQuery<{ id: string }>(
      `insert into entry_logs (tenant_id, id, "timestamp", category, plate_number, extracted_plate,
         vehicle_approved, face_verified, entry_granted, trailer_plates)
       values ($1, gen_random_uuid(), $2, 'visitor', $3, $3, false, false, true, $4) returning id`,
      [admin.body.tenant.id, timestamp, plate, trailerPlates],
    );
    return row!.id;
  };

  it('links each read to the first entry of its plate at or after it within 2 hours (issue 15)', async () => {
    const admin = await t.registerTenant();
    const other = await t.registerTenant();
    await aRead(admin, '2026-03-04T08:00:00Z', null, 'GG44HHGP');
    await aRead(admin, '2026-03-04T06:00:00Z', null, 'JJ55KKGP');
    await aRead(admin, '2026-03-04T05:00:00Z', null, 'LL66MMGP');
    const near = await anEntry(admin, '2026-03-04T08:05:00Z', 'GG44HHGP');
    await anEntry(admin, '2026-03-04T09:30:00Z', 'GG44HHGP'); // a later entry
    await anEntry(admin, '2026-03-04T08:01:00Z', 'ZZ99ZZGP'); // another plate
    await anEntry(admin, '2026-03-04T08:01:30Z', 'GG44HHGP'.replace('GG', 'GH'));
    await anEntry(admin, '2026-03-04T08:10:01Z', 'JJ55KKGP'); // 2 h 10 min later: too far
    await anEntry(other, '2026-03-04T05:00:00Z', 'LL66MMGP'); // another tenant's
    await anEntry(admin, '2026-03-04T04:59:00Z', 'LL66MMGP'); // before the read

    const response = await admin.get('/api/truck-list');

    expect(response.statusCode).toBe(200);
    expect(
      response
        .json<{ plateNumber: string; entryLogId: string | null }[]>()
        .map((r) => [r.plateNumber, r.entryLogId]),
    ).toEqual([
      ['GG44HHGP', near],
      ['JJ55KKGP', null],
      ['LL66MMGP', null],
    ]);
  });

  it('shows the trailers the linked entry recorded with the truck-tractor (issue 21)', async () => {
    const admin = await t.registerTenant();
    await aRead(admin, '2026-03-04T08:00:00Z', null, 'GG44HHGP');
    await aRead(admin, '2026-03-04T07:00:00Z', null, 'JJ55KKGP');
    const rig = await anEntry(admin, '2026-03-04T08:05:00Z', 'GG44HHGP', ['TR12ABGP', 'TR34CDGP']);
    await anEntry(admin, '2026-03-04T07:05:00Z', 'JJ55KKGP'); // a rigid truck

    const response = await admin.get('/api/truck-list');

    expect(response.statusCode).toBe(200);
    expect(
      response
        .json<{ plateNumber: string; entryLogId: string | null; trailerPlates: string[] }[]>()
        .map((r) => [r.plateNumber, r.entryLogId === rig, r.trailerPlates]),
    ).toEqual([
      ['GG44HHGP', true, ['TR12ABGP', 'TR34CDGP']],
      ['JJ55KKGP', false, []],
    ]);
  });

  it('skips no read when several fall in the same millisecond', async () => {
    const admin = await t.registerTenant();
    for (const at of [
      '2026-03-04T09:00:00.1231Z',
      '2026-03-04T09:00:00.1239Z',
      '2026-03-04T08:00:00Z',
    ])
      await aRead(admin, at, null, 'AA11BBGP');

    const seen: string[] = [];
    let cursor = '';
    for (let page = 0; page < 4; page++) {
      const response = await admin.get(`/api/truck-list?limit=1${cursor}`);
      seen.push(...response.json<{ id: string }[]>().map((row) => row.id));
      const next = response.headers['x-next-cursor'];
      if (!next) break;
      cursor = `&cursor=${String(next)}`;
    }

    expect(new Set(seen).size).toBe(3);
  });

  it("shows no other tenant's reads or counts", async () => {
    const mine = await t.registerTenant();
    const theirs = await t.registerTenant();
    await aRead(theirs, '2026-03-04T09:00:00Z', 'ORD-9', 'GG44HHGP');

    const response = await mine.get('/api/truck-list');

    expect(response.json()).toEqual([]);
    expect(response.headers['x-total-count']).toBe('0');
    expect(response.headers['x-next-cursor']).toBeUndefined();
  });

  it('refuses a page cursor it did not hand out, and a page size over 500', async () => {
    const admin = await t.registerTenant();

    expect((await admin.get('/api/truck-list?cursor=garbage')).statusCode).toBe(400);
    expect((await admin.get('/api/truck-list?limit=501')).statusCode).toBe(400);
  });
});
