import { describe, expect, it } from 'vitest';

import { i18next } from '@/lib/i18n';

import { crossCheckWarnings, hasExpired, parseDocumentDate } from './cross-checks';
import {
  type Disc,
  discFromFields,
  type Identity,
  identityFromFields,
  type Licence,
  licenceFromFields,
  type Passport,
  passportFromFields,
} from './document-readings';

const today = new Date(2026, 10, 22, 10, 30);

const disc = (fields: Record<string, unknown>): Disc => discFromFields(fields);
const licence = (fields: Record<string, unknown>): Licence => licenceFromFields(fields);
const identity = (fields: Record<string, unknown>): Identity => identityFromFields(fields);
const passport = (fields: Record<string, unknown>): Passport => passportFromFields(fields);

const none = { plateNumber: null, disc: null, identity: null, licence: null, passport: null };

describe('parseDocumentDate', () => {
  it.each([
    ['2026-11-21', [2026, 10, 21]],
    ['2026/11/21', [2026, 10, 21]],
    ['21/11/2026', [2026, 10, 21]],
    ['21-11-2026', [2026, 10, 21]],
    ['21.11.2026', [2026, 10, 21]],
    ['20261121', [2026, 10, 21]],
    ['21 Nov 2026', [2026, 10, 21]],
  ])('reads %s', (text, [year, month, day]) => {
    const date = parseDocumentDate(text)!;
    expect([date.getFullYear(), date.getMonth(), date.getDate()]).toEqual([year, month, day]);
  });

  it.each(['', 'soon', '31/02/2026', null, undefined])('refuses %j', (text) => {
    expect(parseDocumentDate(text)).toBeNull();
  });
});

describe('hasExpired: valid through the expiry day', () => {
  it('yesterday has expired, today and tomorrow have not', () => {
    expect(hasExpired('2026-11-21', today)).not.toBeNull();
    expect(hasExpired('2026-11-22', today)).toBeNull();
    expect(hasExpired('2026-11-23', today)).toBeNull();
    expect(hasExpired('not a date', today)).toBeNull();
  });
});

describe('crossCheckWarnings', () => {
  it('has nothing to say about nothing', () => {
    expect(crossCheckWarnings(none, today)).toEqual([]);
  });

  it("warns when the disc's licence number is not the scanned plate", () => {
    expect(
      crossCheckWarnings(
        { ...none, plateNumber: 'KP35XKGP', disc: disc({ licenceNumber: 'CA 123-456' }) },
        today,
      ),
    ).toEqual(['Licence disc is for CA 123 456, but the plate reads KP 35 XK GP.']);
  });

  it('accepts the same plate written differently', () => {
    expect(
      crossCheckWarnings(
        { ...none, plateNumber: 'KP35XKGP', disc: disc({ licenceNumber: 'kp 35 xk gp' }) },
        today,
      ),
    ).toEqual([]);
  });

  it('does not compare when either plate is missing', () => {
    expect(
      crossCheckWarnings({ ...none, disc: disc({ licenceNumber: 'CA123456' }) }, today),
    ).toEqual([]);
    expect(crossCheckWarnings({ ...none, plateNumber: 'CA123456', disc: disc({}) }, today)).toEqual(
      [],
    );
  });

  it('warns about an expired disc, not one expiring today', () => {
    expect(
      crossCheckWarnings({ ...none, disc: disc({ dateOfExpiry: '2026-10-31' }) }, today),
    ).toEqual(['Licence disc expired on Oct 31, 2026.']);
    expect(
      crossCheckWarnings({ ...none, disc: disc({ dateOfExpiry: '2026-11-22' }) }, today),
    ).toEqual([]);
  });

  it('warns about an expired driving licence', () => {
    expect(
      crossCheckWarnings({ ...none, licence: licence({ validTo: '2025-01-15' }) }, today),
    ).toEqual(['Driving licence expired on Jan 15, 2025.']);
  });

  it('warns about an expired PrDP', () => {
    expect(
      crossCheckWarnings(
        {
          ...none,
          licence: licence({ validTo: '2030-01-01', prdpCodes: ['G'], prdpExpiry: '2026-06-30' }),
        },
        today,
      ),
    ).toEqual(['Professional driving permit (PrDP) expired on Jun 30, 2026.']);
  });

  it('warns about an expired passport', () => {
    expect(
      crossCheckWarnings({ ...none, passport: passport({ expiryDate: '2020-02-02' }) }, today),
    ).toEqual(['Passport expired on Feb 02, 2020.']);
  });

  it('warns when the licence and the ID document carry different ID numbers', () => {
    expect(
      crossCheckWarnings(
        {
          ...none,
          licence: licence({ idNumber: '8001015009087' }),
          identity: identity({ identityNumber: '8501015009086' }),
        },
        today,
      ),
    ).toEqual([
      'ID number on the driving licence (8001015009087) does not match the ID document (8501015009086).',
    ]);
  });

  it('accepts matching ID numbers however they are spaced', () => {
    expect(
      crossCheckWarnings(
        {
          ...none,
          licence: licence({ idNumber: '800101 5009 087' }),
          identity: identity({ identityNumber: '8001015009087' }),
        },
        today,
      ),
    ).toEqual([]);
  });

  it('lists every problem at once', () => {
    expect(
      crossCheckWarnings(
        {
          plateNumber: 'KP35XKGP',
          disc: disc({ licenceNumber: 'CA123456', dateOfExpiry: '2026-01-01' }),
          licence: licence({ validTo: '2026-01-01', prdpExpiry: '2026-01-01', idNumber: '1' }),
          identity: identity({ identityNumber: '2' }),
          passport: null,
        },
        today,
      ),
    ).toHaveLength(5);
  });
});

describe('crossCheckWarnings in the chosen language (issue 19)', () => {
  it('speaks Afrikaans, with the date as Afrikaans writes it', async () => {
    await i18next.changeLanguage('af');
    expect(
      crossCheckWarnings(
        {
          ...none,
          plateNumber: 'KP35XKGP',
          disc: disc({ licenceNumber: 'CA 123-456', dateOfExpiry: '2026-11-21' }),
        },
        today,
      ),
    ).toEqual([
      'Die lisensieskyf is vir CA 123 456, maar die nommerplaat lees KP 35 XK GP.',
      expect.stringMatching(/^Lisensieskyf het op 21 Nov\.? 2026 verval\.$/),
    ]);
  });

  it('keeps the English sentences when given English', () => {
    expect(
      crossCheckWarnings(
        { ...none, disc: disc({ dateOfExpiry: '2026-11-21' }) },
        today,
        i18next.getFixedT('en', 'realGate'),
      ),
    ).toEqual(['Licence disc expired on Nov 21, 2026.']);
  });
});
