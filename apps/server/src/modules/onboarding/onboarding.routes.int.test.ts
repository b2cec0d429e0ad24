import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { IMPORT_COLUMNS, templateHeader } from '@boomgate/contracts/onboarding';
import { passesLuhn } from '@boomgate/contracts/sa-id-number';
import { noFaceImage, sampleFace, twoFacesSideBySide } from '@boomgate/vision/testing';
import sharp from 'sharp';

import type { GateVisionEngine } from '@/modules/vision';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

/** A valid SA ID number born on `yymmdd`: sequence, citizen, 8, then the Luhn digit. */
let sequence = 5000;
function saId(yymmdd = '800101'): string {
  const twelve = `${yymmdd}${String(sequence++).padStart(4, '0')}08`;
  const check = [...'0123456789'].find((digit) => passesLuhn(`${twelve}${digit}`));
  return `${twelve}${check}`;
}

let plateCounter = 100;
const aPlate = () => `CA ${plateCounter++}-${Math.floor(100 + Math.random() * 900)}`;

const HEADER = IMPORT_COLUMNS.map(templateHeader);

type Row = Partial<Record<(typeof IMPORT_COLUMNS)[number]['field'], string>>;
const csvLine = (cells: string[]) =>
  cells.map((cell) => (/[",\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(',');
const csvOf = (rows: Row[]) =>
  [csvLine(HEADER), ...rows.map((row) => csvLine(IMPORT_COLUMNS.map((c) => row[c.field] ?? '')))]
    .join('\r\n')
    .concat('\r\n');

/** A multipart body with one file part, the way a browser's FormData sends it. */
async function upload(fileName: string, content: Buffer | string, type = 'text/csv') {
  const form = new FormData();
  form.append('file', new Blob([content], { type }), fileName);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
  };
}

const send = async (
  session: Session,
  url: string,
  fileName: string,
  content: Buffer | string,
  type?: string,
) => session.post(url, undefined, await upload(fileName, content, type));

describe('company onboarding', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const driver = (overrides: Row = {}): Row => ({
    name: 'Sipho',
    surname: 'Nkosi',
    idNumber: saId(),
    phone: '082 123 4567',
    licenceNumber: '1234 5678 9ABC',
    licenceValidTo: '2030-06-30',
    transportCompany: 'Kumba Haulage',
    plateNumber: aPlate(),
    ...overrides,
  });

  it('serves the CSV and XLSX templates with the columns, to office staff only', async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    const csv = await admin.get('/api/onboarding/template.csv');
    const xlsx = await admin.get('/api/onboarding/template.xlsx');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename=".*\.csv"/);
    expect(parse(csv.body, { bom: true })).toEqual([HEADER]);
    expect(HEADER.slice(0, 3)).toEqual(['Driver Name*', 'Surname*', 'ID Number*']);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ExcelJS.Buffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Drivers', 'Instructions']);
    expect((workbook.worksheets[0]?.getRow(1).values as unknown[]).slice(1)).toEqual(HEADER);
    expect((await guard.get('/api/onboarding/template.csv')).statusCode).toBe(403);
  });

  it('previews a good CSV, then imports drivers and approved vehicles in one go', async () => {
    const admin = await t.registerTenant();
    const rows = [
      driver({ plateNumber: 'kp 35-xk gp' }),
      driver({ name: 'Thandi', surname: 'Mokoena', plateNumber: '', phone: '+27 82 765 4321' }),
      driver({ name: 'Johan', surname: 'van Wyk', approvedUntil: '31/12/2099' }),
    ];
    const file = csvOf(rows);
    const preview = await send(admin, '/api/onboarding/import/preview', 'fleet.csv', file);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({
      fileName: 'fleet.csv',
      fileType: 'csv',
      totalRows: 3,
      validRows: 3,
      drivers: 3,
      vehicles: 2,
    });
    expect(preview.json().rows.map((row: { rowNumber: number }) => row.rowNumber)).toEqual([
      2, 3, 4,
    ]);
    // A preview writes nothing.
    expect((await admin.get('/api/drivers')).json()).toEqual([]);

    const imported = await send(admin, '/api/onboarding/import', 'fleet.csv', file);
    expect(imported.statusCode).toBe(200);
    expect(imported.json()).toEqual({
      driversImported: 3,
      vehiclesImported: 2,
      rejected: [],
      summary: '3 drivers and 2 vehicles',
    });
    const vehicles = (await admin.get('/api/approved-vehicles')).json();
    const gp = vehicles.find((v: { plateNumber: string }) => v.plateNumber === 'KP35XKGP');
    expect(gp).toMatchObject({
      driverName: 'Sipho Nkosi',
      driverLicense: '123456789ABC',
      company: 'Kumba Haulage',
      isActive: true,
      driverPhoto: null,
    });
    // Spec §5: without a date the approval lasts three months.
    expect(gp.approvedUntil).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(vehicles.some((v: { approvedUntil: string }) => v.approvedUntil === '2099-12-31')).toBe(
      true,
    );
    const drivers = (await admin.get('/api/drivers')).json();
    expect(drivers).toHaveLength(3);
    expect(drivers.find((d: { name: string }) => d.name === 'Thandi')).toMatchObject({
      phone: '0827654321',
      source: 'bulk',
      photo: null,
    });
    const audit = await t.ownerQuery<{ details: Record<string, unknown> }>(
      `select details from audit_events where tenant_id = $1 and action = 'onboarding.imported'`,
      [admin.body.tenant.id],
    );
    expect(audit[0]?.details).toMatchObject({ drivers: 3, vehicles: 2, rejected: 0 });
  });

  it("imports a rig: the trailer columns become the vehicle's trailers (issue 21)", async () => {
    const admin = await t.registerTenant();
    const file = csvOf([
      driver({
        plateNumber: 'HORSE 7 GP',
        trailer1Plate: 'tr 71 gp',
        trailer1DiscNumber: 'D-71',
        trailer1DiscExpiry: '31/12/2099',
        trailer2Plate: 'TR72GP',
      }),
      driver({ plateNumber: '', trailer1Plate: 'TR73GP' }),
      driver({ plateNumber: aPlate(), trailer1DiscNumber: 'D-74' }),
    ]);

    const imported = await send(admin, '/api/onboarding/import', 'rigs.csv', file);

    expect(imported.statusCode).toBe(200);
    expect(imported.json()).toMatchObject({ driversImported: 1, vehiclesImported: 1 });
    expect(imported.json().rejected.map((row: { errors: unknown }) => row.errors)).toEqual([
      [
        expect.objectContaining({
          field: 'trailer1Plate',
          message: expect.stringContaining("truck's plate"),
        }),
      ],
      [
        expect.objectContaining({
          field: 'trailer1Plate',
          message: expect.stringContaining('disc'),
        }),
      ],
    ]);
    const vehicles = (await admin.get('/api/approved-vehicles')).json();
    expect(vehicles[0]).toMatchObject({
      plateNumber: 'HORSE7GP',
      trailers: [
        { plateNumber: 'TR71GP', discNumber: 'D-71', discExpiry: '2099-12-31' },
        { plateNumber: 'TR72GP', discNumber: null, discExpiry: null },
      ],
    });
  });

  it('refuses rows whose plate or trailer the watchlist blocks, covert ones as "Manual check required" (issue 21)', async () => {
    const admin = await t.registerTenant();
    const [stolen, hidden, trailer] = [aPlate(), aPlate(), aPlate()];
    for (const [value, covert] of [
      [stolen, false],
      [hidden, true],
      [trailer, false],
    ] as const) {
      const watched = await admin.post('/api/watchlist', {
        kind: 'plate',
        value,
        reason: 'Stolen, case 77',
        severity: 'block',
        covert,
      });
      expect(watched.statusCode, watched.body).toBe(201);
    }
    const file = csvOf([
      driver({ plateNumber: stolen }),
      driver({ plateNumber: hidden }),
      driver({ trailer1Plate: trailer }),
      driver(),
    ]);

    const preview = (await send(admin, '/api/onboarding/import/preview', 'w.csv', file)).json();
    expect(preview).toMatchObject({ totalRows: 4, validRows: 1 });
    const imported = await send(admin, '/api/onboarding/import', 'w.csv', file);

    expect(imported.statusCode).toBe(200);
    expect(imported.json()).toMatchObject({ driversImported: 1, vehiclesImported: 1 });
    const rejected = imported.json().rejected as { errors: { field: string; message: string }[] }[];
    expect(rejected.map((row) => row.errors.map((error) => error.field))).toEqual([
      ['plateNumber'],
      ['plateNumber'],
      ['trailer1Plate'],
    ]);
    expect(rejected[0]?.errors[0]?.message).toContain('Stolen, case 77');
    expect(rejected[1]?.errors[0]?.message).toContain('Manual check required');
    expect(rejected[1]?.errors[0]?.message).not.toMatch(/watchlist|Stolen/i);
    const hits = await t.ownerQuery<{ details: { gatePath: string; decision: string } }>(
      `select details from audit_events where tenant_id = $1 and action = 'watchlist.hit'`,
      [admin.body.tenant.id],
    );
    expect(hits).toHaveLength(3);
    expect(hits[0]?.details).toMatchObject({ gatePath: 'pre-registration', decision: 'refused' });

    const single = await admin.post('/api/onboarding/drivers', driver({ plateNumber: stolen }));
    expect(single.statusCode).toBe(422);
    expect(single.json().error).toMatchObject({ code: 'UNPROCESSABLE' });
    // Audited, with its hit, though nothing was stored.
    const refusals = await t.ownerQuery(
      `select id from audit_events where tenant_id = $1 and action = 'approved-vehicle.refused'`,
      [admin.body.tenant.id],
    );
    expect(refusals).toHaveLength(1);
  });

  it('links each imported or individually added vehicle to the driver it was onboarded for', async () => {
    const admin = await t.registerTenant();
    const first = driver();
    const second = driver();
    const withoutVehicle = driver({ plateNumber: '' });
    const single = driver();
    // The ID number is sealed at rest (issue 26): opened here with the tenant's key.
    const linksOf = async () =>
      Promise.all(
        (
          await t.ownerQuery<{ plate_number: string; id_number: string | null }>(
            `select v.plate_number, d.id_number from approved_vehicles v
             left join drivers d on d.tenant_id = v.tenant_id and d.id = v.driver_id
             where v.tenant_id = $1 order by v.plate_number`,
            [admin.body.tenant.id],
          )
        ).map(async (row) => ({
          ...row,
          id_number:
            row.id_number &&
            (await t.modules.keys.keyring.open(
              admin.body.tenant.id,
              'drivers.id_number',
              row.id_number,
            )),
        })),
      );

    const imported = await send(
      admin,
      '/api/onboarding/import',
      'fleet.csv',
      csvOf([first, withoutVehicle, second]),
    );
    const created = await admin.post('/api/onboarding/drivers', single);

    expect(imported.json().summary).toBe('3 drivers and 2 vehicles');
    expect(created.statusCode).toBe(201);
    const plate = (row: Row) => (row.plateNumber ?? '').toUpperCase().replace(/[^A-Z0-9]/g, '');
    expect(await linksOf()).toEqual(
      [first, second, single]
        .map((row) => ({ plate_number: plate(row), id_number: row.idNumber }))
        .sort((a, b) => a.plate_number.localeCompare(b.plate_number)),
    );
  });

  it('imports the XLSX template filled in: numeric ID cells, date cells, a blank row', async () => {
    const admin = await t.registerTenant();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(
      (await admin.get('/api/onboarding/template.xlsx')).rawPayload as unknown as ExcelJS.Buffer,
    );
    const sheet = workbook.getWorksheet('Drivers');
    if (!sheet) throw new Error('the template has no Drivers sheet');
    const id = saId('850615');
    sheet.addRow([
      'Lerato',
      'Dube',
      Number(id),
      '0831234567',
      '',
      new Date(Date.UTC(2031, 0, 15)),
      'Dube Transport',
      'ND 123-456',
      '',
    ]);
    sheet.addRow([]);
    sheet.addRow(['Bongani', 'Zulu', saId('900202'), '', '', '', '', '', '']);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const preview = await send(
      admin,
      '/api/onboarding/import/preview',
      'fleet.xlsx',
      bytes,
      'application/octet-stream',
    );
    expect(preview.json()).toMatchObject({
      fileType: 'xlsx',
      totalRows: 2,
      validRows: 2,
      vehicles: 1,
    });
    expect(preview.json().rows.map((row: { rowNumber: number }) => row.rowNumber)).toEqual([2, 4]);
    const imported = await send(admin, '/api/onboarding/import', 'fleet.xlsx', bytes);
    expect(imported.json().summary).toBe('2 drivers and 1 vehicle');
    const drivers = (await admin.get('/api/drivers')).json();
    expect(drivers.find((d: { idNumber: string }) => d.idNumber === id)).toMatchObject({
      name: 'Lerato',
      licenceValidTo: '2031-01-15',
    });
  });

  it('reports every bad row with its reasons, imports the rest, and overwrites nothing', async () => {
    const admin = await t.registerTenant();
    const existingPlate = aPlate();
    await admin.post('/api/approved-vehicles', {
      plateNumber: existingPlate,
      driverName: 'Original Driver',
      approvedUntil: '2099-01-01',
    });
    const registered = driver({ plateNumber: '' });
    await send(admin, '/api/onboarding/import', 'first.csv', csvOf([registered]));

    const good = driver();
    const rows = [
      good, // row 2
      driver({ name: '' }), // 3: required
      driver({ idNumber: '8001015009086' }), // 4: checksum
      driver({ phone: '12345', licenceValidTo: '2030-02-30' }), // 5: phone and date
      driver({ idNumber: good.idNumber }), // 6: same ID as row 2
      driver({ plateNumber: good.plateNumber?.toLowerCase() }), // 7: same plate as row 2
      driver({ plateNumber: existingPlate }), // 8: vehicle already registered
      driver({ idNumber: registered.idNumber }), // 9: driver already registered
      driver({ approvedUntil: '2020-01-01' }), // 10: in the past
      driver({ plateNumber: '', approvedUntil: '2099-01-01' }), // 11: date without plate
      driver({ plateNumber: '*' }), // 12: no letters or digits
    ];
    const file = csvOf(rows);
    const preview = (await send(admin, '/api/onboarding/import/preview', 'bad.csv', file)).json();
    expect(preview).toMatchObject({ totalRows: 11, validRows: 1, drivers: 1, vehicles: 1 });
    const errorsOf = (rowNumber: number) =>
      preview.rows
        .find((row: { rowNumber: number }) => row.rowNumber === rowNumber)
        .errors.map((error: { field: string; message: string }) => [error.field, error.message]);
    expect(errorsOf(2)).toEqual([]);
    expect(errorsOf(3)).toEqual([['name', 'Driver name is required.']]);
    expect(errorsOf(4)).toEqual([
      ['idNumber', 'This is not a valid South African ID number: please check the digits.'],
    ]);
    expect(errorsOf(5).map(([field]: string[]) => field)).toEqual(['phone', 'licenceValidTo']);
    expect(errorsOf(6)).toEqual([['idNumber', 'Same ID number as row 2.']]);
    expect(errorsOf(7)).toEqual([['plateNumber', 'Same plate number as row 2.']]);
    expect(errorsOf(8)).toEqual([
      ['plateNumber', `Vehicle ${existingPlate.replace(/[^A-Z0-9]/g, '')} is already registered.`],
    ]);
    expect(errorsOf(9)).toEqual([
      ['idNumber', 'A driver with this ID number is already registered.'],
    ]);
    expect(errorsOf(10)).toEqual([['approvedUntil', 'Approved until must be today or later.']]);
    expect(errorsOf(11)).toEqual([['approvedUntil', 'Approved until needs a plate number.']]);
    expect(errorsOf(12)).toEqual([
      ['plateNumber', 'Plate number must have 2 to 10 letters or digits.'],
    ]);

    const result = (await send(admin, '/api/onboarding/import', 'bad.csv', file)).json();
    expect(result.summary).toBe('1 driver and 1 vehicle');
    expect(result.rejected.map((row: { rowNumber: number }) => row.rowNumber)).toEqual([
      3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
    ]);
    const original = (await admin.get('/api/approved-vehicles')).json();
    expect(
      original.filter((v: { driverName: string }) => v.driverName === 'Original Driver'),
    ).toHaveLength(1);
    expect((await admin.get('/api/drivers')).json()).toHaveLength(2);

    // Importing the same file again adds nothing: every row is now a duplicate.
    const again = (await send(admin, '/api/onboarding/import', 'bad.csv', file)).json();
    expect(again).toMatchObject({ driversImported: 0, vehiclesImported: 0 });
    expect(again.rejected).toHaveLength(11);
  });

  it('refuses a file over 10MB, too many rows, and a file without the required columns', async () => {
    const admin = await t.registerTenant();
    const big = `${csvLine(HEADER)}\r\n${'x'.repeat(10_485_761)}`;
    const tooBig = await send(admin, '/api/onboarding/import/preview', 'big.csv', big);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error.message).toBe('The file is larger than 10MB.');

    const many = [csvLine(HEADER), ...Array.from({ length: 5001 }, () => 'A,B,8001015009087')].join(
      '\n',
    );
    const tooMany = await send(admin, '/api/onboarding/import/preview', 'many.csv', many);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toMatch(/more than 5[,\s]?000 rows/);

    const noId = await send(
      admin,
      '/api/onboarding/import/preview',
      'x.csv',
      'Driver Name,Surname\nA,B\n',
    );
    expect(noId.statusCode).toBe(400);
    expect(noId.json().error.message).toMatch(/^The file is missing the column\(s\) ID Number\./);
  });

  it('refuses files that are not CSV or XLSX, whatever they are called', async () => {
    const admin = await t.registerTenant();
    const png = await noFaceImage();
    const cases: [string, Buffer | string][] = [
      ['photo.csv', png],
      ['fleet.xlsx', csvOf([driver()])],
      ['fleet.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0])],
      ['fleet.txt', csvOf([driver()])],
      // Windows-1252 "é": not UTF-8.
      [
        'latin1.csv',
        Buffer.concat([
          Buffer.from(`${csvLine(HEADER)}\r\nRen`),
          Buffer.from([0xe9]),
          Buffer.from(',X,8001015009087\r\n'),
        ]),
      ],
      // A ZIP that is no workbook.
      ['archive.xlsx', Buffer.from('504b0506000000000000000000000000000000000000', 'hex')],
    ];
    for (const [name, content] of cases) {
      const response = await send(admin, '/api/onboarding/import/preview', name, content);
      expect([name, response.statusCode]).toEqual([name, 415]);
      expect(response.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    const json = await admin.post('/api/onboarding/import/preview', { file: 'x' });
    expect(json.statusCode).toBe(415);
    expect((await admin.get('/api/drivers')).json()).toEqual([]);
  });

  it('neutralises formulas in the drivers export and the error report', async () => {
    const admin = await t.registerTenant();
    const file = csvOf([
      driver({
        name: '=HYPERLINK("http://evil.example","Click")',
        transportCompany: '@SUM(A1:A9)',
      }),
      driver({ surname: '+cmd|" /C calc"!A0', idNumber: '123' }),
    ]);
    await send(admin, '/api/onboarding/import', 'evil.csv', file);
    const exported = await admin.get('/api/drivers/export.csv');
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toMatch(/^text\/csv/);
    const [header, row]: string[][] = parse(exported.body, { bom: true });
    expect(header?.[0]).toBe('Driver Name');
    // Bulk, individual or self: how the driver was added, not who added them.
    expect(header?.[7]).toBe('Source');
    expect(row?.[7]).toBe('bulk');
    expect(row?.[0]).toBe(`'=HYPERLINK("http://evil.example","Click")`);
    expect(row?.[6]).toBe(`'@SUM(A1:A9)`);
    expect(row?.[3]).toBe('0821234567');

    const report = await send(admin, '/api/onboarding/import/errors.csv', 'evil.csv', file);
    const lines: string[][] = parse(report.body, { bom: true });
    expect(lines[0]).toEqual(['Row', ...IMPORT_COLUMNS.map((c) => c.header), 'Errors']);
    // The first row is now a duplicate of the imported driver; the second had a bad ID number.
    expect(lines.map((line) => line[0])).toEqual(['Row', '2', '3']);
    expect(lines[2]?.[2]).toBe(`'+cmd|" /C calc"!A0`);
    expect(lines[2]?.at(-1)).toMatch(/^ID Number: An ID number has 13 digits\./);
  });

  it('adds one driver and vehicle from the individual tab, with the same checks', async () => {
    const admin = await t.registerTenant();
    const backOffice = await t.createSignedInUser(admin, 'back_office');
    const body = { ...driver(), approvedUntil: '2099-06-30' };
    const created = await backOffice.post('/api/onboarding/drivers', body);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      driver: { name: 'Sipho', idNumber: body.idNumber, phone: '0821234567', source: 'individual' },
      vehicle: {
        plateNumber: body.plateNumber?.replace(/[^A-Z0-9]/g, ''),
        approvedUntil: '2099-06-30',
      },
    });
    const missing = await backOffice.post('/api/onboarding/drivers', { ...driver(), surname: ' ' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toMatch(/^Surname is required\./);
    const badId = await backOffice.post('/api/onboarding/drivers', {
      ...driver(),
      idNumber: '8001015009086',
    });
    expect(badId.statusCode).toBe(400);
    const duplicate = await backOffice.post('/api/onboarding/drivers', {
      ...driver(),
      idNumber: body.idNumber,
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error.message).toBe(
      'A driver with this ID number is already registered.',
    );
    expect(
      await t.ownerQuery(
        `select 1 from audit_events where tenant_id = $1 and action = 'driver.created'`,
        [admin.body.tenant.id],
      ),
    ).toHaveLength(1);
  });

  it('lets office roles onboard and guards only verify; signed-out callers get 401', async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    const file = csvOf([driver()]);
    for (const url of [
      '/api/onboarding/import/preview',
      '/api/onboarding/import',
      '/api/onboarding/import/errors.csv',
    ]) {
      expect((await send(guard, url, 'f.csv', file)).statusCode).toBe(403);
    }
    expect((await guard.post('/api/onboarding/drivers', driver())).statusCode).toBe(403);
    expect((await guard.get('/api/drivers')).statusCode).toBe(403);
    expect((await guard.get('/api/drivers/export.csv')).statusCode).toBe(403);
    expect(
      (await t.inject({ method: 'GET', url: '/api/onboarding/template.csv' })).statusCode,
    ).toBe(401);
    const anonymous = await t.inject({
      method: 'POST',
      url: '/api/onboarding/import',
      ...(await upload('f.csv', file)),
    });
    expect(anonymous.statusCode).toBe(401);
    expect(
      (await guard.post('/api/drivers/verify-reference', { reference: 'nonsense' })).statusCode,
    ).toBe(422);
  });

  it("keeps tenants apart: another tenant's drivers are invisible and its ids are 404", async () => {
    const acme = await t.registerTenant();
    const other = await t.registerTenant();
    const shared = driver();
    await send(acme, '/api/onboarding/import', 'a.csv', csvOf([shared]));
    // The same person and plate may be registered by another organization too.
    const theirs = (await send(other, '/api/onboarding/import', 'b.csv', csvOf([shared]))).json();
    expect(theirs.summary).toBe('1 driver and 1 vehicle');
    const [acmeDriver] = (await acme.get('/api/drivers')).json();
    const foreign = await other.get(`/api/drivers/${acmeDriver.id}`);
    const random = await other.get(`/api/drivers/${crypto.randomUUID()}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(random.body);
    expect((await acme.get(`/api/drivers/${acmeDriver.id}`)).json().id).toBe(acmeDriver.id);
    expect((await other.get('/api/drivers')).json()).toHaveLength(1);
  });
});

type Point = { x: number; y: number };
type Pose = 'look' | 'blink' | 'turn_left' | 'turn_right';

/** The detected landmarks with the eyelids (iBUG 37-38, 40-41 and 43-44, 46-47) shut. */
function withEyesShut(points: Point[]): Point[] {
  const shut = points.map((point) => ({ ...point }));
  for (const [corner, other, lids] of [
    [36, 39, [37, 38, 40, 41]],
    [42, 45, [43, 44, 46, 47]],
  ] as const) {
    const middle = (shut[corner]!.y + shut[other]!.y) / 2;
    for (const lid of lids) shut[lid]!.y = middle;
  }
  return shut;
}

/** The detected landmarks with the nose (iBUG 27-35) moved towards one side of the jaw. */
function withHeadTurned(points: Point[], towards: 'left' | 'right'): Point[] {
  const width = points[16]!.x - points[0]!.x;
  const shift = (towards === 'left' ? 1 : -1) * 0.22 * width;
  return points.map((point, index) =>
    index >= 27 && index <= 35 ? { x: point.x + shift, y: point.y } : point,
  );
}

describe('self onboarding', () => {
  let t: TestApp;
  let selfie: string;
  let licence: string;
  /**
   * No live blink or head turn of one person can be made offline, so this suite's engine changes
   * the landmarks the real engine finds in the blink and turn captures (shut eyelids, a turned
   * nose) and keeps everything else it measures: the face count and the same-person score. The
   * server's judgement itself is tested on landmark sequences in packages/vision (liveness.test.ts)
   * and, on real photos, by the refusals below, which use the real engine's landmarks untouched.
   */
  const posed = new Map<string, Pose>();
  let livenessFrames: Record<Pose, string>;
  beforeAll(async () => {
    t = await createTestApp({
      visionEngine: (engine): GateVisionEngine => ({
        ...engine,
        async compareFaceToDescriptor(image, descriptor, options) {
          const result = await engine.compareFaceToDescriptor(image, descriptor, options);
          const pose = posed.get(Buffer.from(image).toString('base64'));
          if (!result.ok || !pose || pose === 'look') return result;
          const landmarks =
            pose === 'blink'
              ? withEyesShut(result.face.landmarks)
              : withHeadTurned(result.face.landmarks, pose === 'turn_left' ? 'left' : 'right');
          return { ...result, face: { ...result.face, landmarks } };
        },
      }),
    });
    const face = await sampleFace('left');
    selfie = `data:image/jpeg;base64,${face.toString('base64')}`;
    // Bare base64: the server takes the type from the bytes.
    licence = (await noFaceImage()).toString('base64');
    // Four different encodings of the driver's face: the suite's engine knows each capture's pose.
    const entries = await Promise.all(
      (['look', 'blink', 'turn_left', 'turn_right'] as const).map(async (pose, index) => {
        const bytes = await sharp(face)
          .jpeg({ quality: 80 + index })
          .toBuffer();
        posed.set(bytes.toString('base64'), pose);
        return [pose, `data:image/jpeg;base64,${bytes.toString('base64')}`] as const;
      }),
    );
    livenessFrames = Object.fromEntries(entries) as Record<Pose, string>;
  });
  afterAll(() => t.close());

  const body = (overrides: Record<string, unknown> = {}) => ({
    name: 'Nomsa',
    surname: 'Khumalo',
    idNumber: saId('920317'),
    phone: '072 555 0101',
    licenceNumber: 'ABC123',
    licenceValidTo: '2020-01-31',
    licencePhoto: licence,
    selfie,
    livenessFrames,
    biometricConsent: true,
    ...overrides,
  });

  it('stores the driver with images and consent, and answers a reference the gate can verify', async () => {
    const admin = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    const response = await admin.post('/api/onboarding/self', body());
    expect(response.statusCode).toBe(201);
    const { driver, reference } = response.json();
    // The server's own verdict on the captures is stored.
    expect(driver.source).toBe('self');
    expect(driver.livenessConfidence).toBeGreaterThan(0.5);
    expect(driver.livenessConfidence).toBeLessThanOrEqual(1);
    const [created] = await t.ownerQuery<{ details: { liveness: Record<string, number> } }>(
      `select details from audit_events where action = 'driver.created' and target_id = $1`,
      [driver.id],
    );
    expect(created?.details.liveness).toMatchObject({
      confidence: driver.livenessConfidence,
      framesWithFace: 4,
      blinks: 1,
    });
    expect(created?.details.liveness.maxTurnLeftDeg).toBeGreaterThanOrEqual(18);
    expect(created?.details.liveness.maxTurnRightDeg).toBeGreaterThanOrEqual(18);
    expect(driver.photo).toMatch(new RegExp(`^/api/images/${admin.body.tenant.id}/driver-photos/`));
    expect(driver.licenceImage).toMatch(/\/drivers-licences\//);
    expect((await admin.get(driver.photo)).headers['content-type']).toBe('image/jpeg');
    const [row] = await t.ownerQuery<Record<string, unknown>>(
      'select photo_key, photo_consent_by, photo_consent_notice, biometrics_purge_after from drivers where id = $1',
      [driver.id],
    );
    expect(row).toMatchObject({
      photo_consent_by: admin.body.user.id,
      photo_consent_notice: 'driver-selfie-notice-2026-11',
    });
    expect(String(row?.photo_key)).not.toMatch(/base64/);

    const verified = await guard.post('/api/drivers/verify-reference', { reference });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ driver: { id: driver.id }, licenceExpired: true });

    const other = await t.registerTenant();
    const foreign = await other.post('/api/drivers/verify-reference', { reference });
    expect(foreign.statusCode).toBe(404);
    const forged = await guard.post('/api/drivers/verify-reference', {
      reference: reference.replace(driver.id, crypto.randomUUID()),
    });
    expect(forged.statusCode).toBe(422);

    const twice = await admin.post('/api/onboarding/self', body({ idNumber: driver.idNumber }));
    expect(twice.statusCode).toBe(409);
  }, 90_000);

  const dataUrl = (bytes: Buffer) => `data:image/jpeg;base64,${bytes.toString('base64')}`;
  const noDriverStored = async (admin: Session) =>
    expect(
      await t.ownerQuery('select 1 from drivers where tenant_id = $1', [admin.body.tenant.id]),
    ).toHaveLength(0);

  it('refuses a replayed still photo, whatever confidence the browser claims, and stores nothing', async () => {
    const admin = await t.registerTenant();
    const still = dataUrl(await sampleFace('left'));

    const response = await admin.post(
      '/api/onboarding/self',
      body({
        livenessFrames: { look: still, blink: still, turn_left: still, turn_right: still },
        livenessConfidence: 99,
      }),
    );

    expect(response.statusCode).toBe(422);
    expect(response.json().error.message).toMatch(
      /^Liveness check failed: The face did not move at all: this looks like a still photo\. No blink was seen\. No head turn to the left was seen\. No head turn to the right was seen\./,
    );
    await noDriverStored(admin);
  }, 90_000);

  it('refuses a still photo moved and zoomed between captures: no blink, no turn', async () => {
    const admin = await t.registerTenant();
    const face = await sampleFace('left');
    const crop = async (left: number, top: number, size: number) =>
      dataUrl(
        await sharp(face)
          .extract({ left, top, width: size, height: size + 60 })
          .toBuffer(),
      );

    const response = await admin.post(
      '/api/onboarding/self',
      body({
        livenessConfidence: 0.99,
        livenessFrames: {
          look: await crop(0, 0, 400),
          blink: await crop(30, 10, 360),
          turn_left: await crop(10, 40, 340),
          turn_right: await crop(40, 20, 330),
        },
      }),
    );

    expect(response.statusCode).toBe(422);
    expect(response.json().error.message).toMatch(/No blink was seen\./);
    await noDriverStored(admin);
  }, 90_000);

  it('refuses captures of someone else or with a second face in them', async () => {
    const admin = await t.registerTenant();
    const someoneElse = await admin.post(
      '/api/onboarding/self',
      body({
        livenessFrames: { ...livenessFrames, turn_right: dataUrl(await sampleFace('right')) },
      }),
    );
    const twoFaces = await admin.post(
      '/api/onboarding/self',
      body({
        livenessFrames: {
          ...livenessFrames,
          blink: dataUrl(await twoFacesSideBySide('left', 'middle')),
        },
      }),
    );

    expect(someoneElse.statusCode).toBe(422);
    expect(someoneElse.json().error.message).toBe(
      'Liveness check failed: the "turn right" capture does not show the same person as the selfie. Please take the check again.',
    );
    expect(twoFaces.statusCode).toBe(422);
    expect(twoFaces.json().error.message).toMatch(/the "blink" capture shows more than one face/);
    await noDriverStored(admin);
  }, 90_000);

  it('refuses a selfie without consent or without a face, and stores nothing', async () => {
    const admin = await t.registerTenant();
    const noConsent = await admin.post('/api/onboarding/self', body({ biometricConsent: false }));
    expect(noConsent.statusCode).toBe(400);
    const noFace = await admin.post('/api/onboarding/self', body({ selfie: licence }));
    expect(noFace.statusCode).toBe(422);
    expect(noFace.json().error.message).toMatch(/^Selfie: /);
    expect(
      await t.ownerQuery('select 1 from drivers where tenant_id = $1', [admin.body.tenant.id]),
    ).toHaveLength(0);
  }, 90_000);

  it('purges the selfie once the retention period is over, keeping the record', async () => {
    const admin = await t.registerTenant();
    const { driver } = (await admin.post('/api/onboarding/self', body())).json();
    t.clock.advanceMs(366 * 86_400_000);
    expect(await t.modules.drivers.service.purgeExpiredBiometrics()).toBeGreaterThanOrEqual(1);
    expect(await t.modules.drivers.service.purgeExpiredBiometrics()).toBe(0);
    const fresh = await t.login(admin.body.user.username, admin.password);
    const after = (await fresh.get(`/api/drivers/${driver.id}`)).json();
    expect(after).toMatchObject({ id: driver.id, photo: null, name: 'Nomsa' });
    expect((await fresh.get(driver.photo)).statusCode).toBe(404);
  }, 90_000);
});
