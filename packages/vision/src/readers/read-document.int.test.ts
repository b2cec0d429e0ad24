import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';

import { VisionInputError } from '../errors';
import { closeTesseract } from '../ocr/tesseract';
import { ICAO_TD3, renderBarcodeCardPhoto, renderPassportPhoto } from '../testing/document-fixture';
import {
  aSadlRecordFields,
  buildSadlRecord,
  encryptSadlRecord,
  generateTestSadlKeys,
} from '../testing/sadl-fixture';
import { renderWeighbridgeTicket } from '../testing/weighbridge-fixture';

import { readDocument } from './read-document';

const testKeys = generateTestSadlKeys();
const ctx = { intraOpThreads: 2, sadlKeys: testKeys.keys, now: new Date('2026-01-01T00:00:00Z') };

const DISC =
  '%MVL1CC53%0148%4522A001%1%4024048GB8LY%KP35XKGP%SHS812W%Station wagon / Stasiewa%MITSUBISHI%ASX%White / Wit%JMYXTGA2WDZ000956%4B11LC0187%2027-07-31%';
const SMART_ID =
  'DOE|JANE MARY|F|RSA|8001010001089|01 JAN 1980|RSA|CITIZEN|01 FEB 2020|12345|123456789|1234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789';

afterAll(() => closeTesseract());

describe('readDocument', () => {
  it('reads a licence disc from its barcode', async () => {
    const result = await readDocument('disk', await renderBarcodeCardPhoto(DISC), ctx);

    expect(result).toMatchObject({
      ok: true,
      source: 'barcode',
      fields: {
        licenceNumber: 'KP35XKGP',
        vehicleRegisterNo: 'SHS812W',
        make: 'MITSUBISHI',
        description: 'Station wagon',
        dateOfExpiry: '2027-07-31',
        isLengthValid: true,
      },
    });
  });

  it('reads a smart ID card back', async () => {
    const result = await readDocument('id', await renderBarcodeCardPhoto(SMART_ID), ctx);

    expect(result).toMatchObject({
      ok: true,
      source: 'barcode',
      fields: { identityNumber: '8001010001089', surname: 'DOE', dateOfBirth: '1980-01-01' },
    });
  });

  it('decrypts and parses a driving-licence barcode (test key pair)', async () => {
    const raw = encryptSadlRecord(
      buildSadlRecord(aSadlRecordFields({ surname: 'KHUMALO', initials: 'TS' })),
      testKeys,
    );

    const result = await readDocument('license', await renderBarcodeCardPhoto(raw), ctx);

    expect(result).toMatchObject({
      ok: true,
      source: 'barcode',
      fields: {
        nameOnCard: 'TS KHUMALO',
        licenceNumber: '10230000ABCD',
        idNumber: '8001015009087',
        validTo: '2026-05-03',
        vehicleCodes: ['EB', 'C1'],
      },
    });
  });

  it('reads the MRZ of a passport page with every check passing', async () => {
    const result = await readDocument('passport', await renderPassportPhoto(), ctx);

    expect(result).toMatchObject({
      ok: true,
      source: 'mrz',
      fields: { checksValid: true, passportNumber: 'L898902C3', surname: 'ERIKSSON' },
    });
    expect(result.ok && result.fields.mrzLines).toEqual(ICAO_TD3);
    // Two readings (or the visual zone) agree: nothing for the guard to confirm.
    expect(result.ok && result.uncertain).toEqual([]);
  });

  it('returns an MRZ whose name line is damaged as uncertain, never as a confident wrong name', async () => {
    // The top half of `ER` of ERIKSSON is worn away; the check digits do not cover the names.
    const image = await renderPassportPhoto(ICAO_TD3, {
      damage: [{ line: 0, from: 5, to: 6, coverTop: 0.55 }],
    });

    const result = await readDocument('passport', image, ctx);

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.fields).toMatchObject({ checksValid: true, passportNumber: 'L898902C3' });
    const uncertain = result.uncertain ?? [];
    expect(uncertain).toContain('surname');
    // Whatever was read, a wrong value is never shown as confirmed.
    if ((result.fields.mrzLines as string[])[0] !== ICAO_TD3[0])
      expect(uncertain).toContain('mrzLines');
    expect(uncertain).not.toContain('passportNumber');
    expect(uncertain).not.toContain('dateOfBirth');
  });

  it('reads the MRZ of a small (380 px wide) scan of the page', async () => {
    const page = await sharp(await renderPassportPhoto(ICAO_TD3, { rotateDegrees: 0 }))
      .extract({ left: 250, top: 60, width: 1420, height: 960 })
      .resize({ width: 380 })
      .jpeg({ quality: 85 })
      .toBuffer();

    const result = await readDocument('passport', page, ctx);

    expect(result.ok && result.fields.checksValid).toBe(true);
    expect(result.ok && result.fields.mrzLines).toEqual(ICAO_TD3);
  });

  it.each([7, -7])(
    'levels a page photographed at %i degrees before reading its MRZ',
    async (rotateDegrees) => {
      // At 7 degrees a 1150 px zone line climbs ~140 px, two line pitches: boxes cut across lines.
      const result = await readDocument(
        'passport',
        await renderPassportPhoto(ICAO_TD3, { rotateDegrees }),
        ctx,
      );

      expect(result.ok && result.fields.checksValid).toBe(true);
      expect(result.ok && result.fields.mrzLines).toEqual(ICAO_TD3);
    },
  );

  it('reports a printed MRZ with a wrong check digit as invalid, with its lines', async () => {
    const wrong = [ICAO_TD3[0]!, ICAO_TD3[1]!.replace('7408122', '7408123')];

    const result = await readDocument('passport', await renderPassportPhoto(wrong), ctx);

    expect(result.ok && result.fields.checksValid).toBe(false);
    expect(result.ok && (result.fields.mrzLines as string[])[1]).toBe(wrong[1]);
  });

  it('extracts a weighbridge ticket and checks its masses', async () => {
    const result = await readDocument('weighbridge', await renderWeighbridgeTicket(), ctx);

    expect(result).toMatchObject({
      ok: true,
      source: 'ocr',
      partial: false,
      fields: {
        ticketNumber: 'WB-004821',
        vehicleReg: 'KP35XKGP',
        tareWeight: 15240,
        grossWeight: 49880,
        netWeight: 34640,
        massCheck: 'ok',
        sealNumbers: ['SL102938', 'SL102939'],
      },
    });
  });

  it('reads the printed front of a smart ID card when there is no barcode', async () => {
    const front = [
      'REPUBLIC OF SOUTH AFRICA',
      'Surname',
      'DOE',
      'Names',
      'JANE MARY',
      'Sex F',
      'Nationality RSA',
      'Identity Number 8001010001089',
      'Date of Birth 01 JAN 1980',
      'Status CITIZEN',
    ];

    const result = await readDocument('id', await renderWeighbridgeTicket(front.join('\n')), ctx);

    expect(result).toMatchObject({
      ok: true,
      source: 'ocr',
      fields: {
        identityNumber: '8001010001089',
        surname: 'DOE',
        givenNames: 'JANE MARY',
        dateOfBirth: '1980-01-01',
      },
    });
  });

  it('reads the printed front of a driving licence when there is no barcode', async () => {
    const front = [
      'DRIVING LICENCE',
      'Surname TESTER',
      'Initials AB',
      'ID No. 8001015009087',
      'Licence No. 10230000ABCD',
      'Valid 2021/05/04 - 2026/05/03',
      'Code EB',
    ];

    const result = await readDocument(
      'license',
      await renderWeighbridgeTicket(front.join('\n')),
      ctx,
    );

    expect(result).toMatchObject({
      ok: true,
      source: 'ocr',
      fields: {
        idNumber: '8001015009087',
        licenceNumber: '10230000ABCD',
        validTo: '2026-05-03',
        nameOnCard: 'AB TESTER',
      },
    });
  });

  it('rejects an unknown type with a typed error', async () => {
    await expect(
      readDocument('face' as 'plate', new Uint8Array([0xff, 0xd8, 0xff]), ctx),
    ).rejects.toBeInstanceOf(VisionInputError);
  });
});
