import { describe, expect, it } from 'vitest';

import { GrantEntryBodySchema } from '@boomgate/contracts/entry-logs';

import {
  discFromFields,
  identityFromFields,
  licenceFromFields,
  passportFromFields,
} from './document-readings';
import { i18next } from '@/lib/i18n';

import { driverDetails, plateWarning, plateWarningText, realGateEntry } from './real-gate-entry';
import { initialRealGateState, type RealGateData } from './real-gate-machine';

const saved = <T>(reading: T, recordId = crypto.randomUUID()) => ({
  recordId,
  image: `data:image/jpeg;base64,${recordId}`,
  reading,
});

const idDoc = saved(
  identityFromFields({
    identityNumber: '8001015009087',
    givenNames: 'Thabo',
    surname: 'Mokoena',
    phone1: '0821111111',
  }),
);
const licenceCard = saved(
  licenceFromFields({
    nameOnCard: 'T MOKOENA',
    idNumber: '8001015009000',
    phone1: '0832222222',
    phone2: '0821111111',
    phone3: '0843333333',
  }),
);

describe('driverDetails (spec §5 precedence)', () => {
  it('takes the name on the licence over the ID document', () => {
    expect(driverDetails({ identity: idDoc, licence: licenceCard, passport: null })).toMatchObject({
      driverName: 'T MOKOENA',
      driverSurname: null,
    });
  });

  it("takes the ID document's given names with its surname when the licence has no name", () => {
    expect(driverDetails({ identity: idDoc, licence: null, passport: null })).toMatchObject({
      driverName: 'Thabo',
      driverSurname: 'Mokoena',
    });
  });

  it('falls back to the passport names', () => {
    const passport = saved(passportFromFields({ givenNames: 'JOHN', surname: 'BANDA' }));
    expect(driverDetails({ identity: null, licence: null, passport })).toMatchObject({
      driverName: 'JOHN',
      driverSurname: 'BANDA',
    });
  });

  it("takes the ID document's ID number over the licence's", () => {
    expect(
      driverDetails({ identity: idDoc, licence: licenceCard, passport: null }).driverIdNumber,
    ).toBe('8001015009087');
    expect(
      driverDetails({ identity: null, licence: licenceCard, passport: null }).driverIdNumber,
    ).toBe('8001015009000');
  });

  it("puts the ID document's phone first, then the licence's, without repeats", () => {
    expect(driverDetails({ identity: idDoc, licence: licenceCard, passport: null })).toMatchObject({
      driverPhone1: '0821111111',
      driverPhone2: '0832222222',
      driverPhone3: '0843333333',
    });
  });
});

describe('realGateEntry', () => {
  const data: RealGateData = {
    ...initialRealGateState.data,
    plate: {
      plateNumber: 'KP35XKGP',
      extractedPlate: 'KP 35 XK GP',
      isTypedByGuard: false,
      image: 'data:image/jpeg;base64,plate',
      approved: false,
      driverName: null,
      company: null,
    },
    face: { image: 'data:image/jpeg;base64,face', note: null },
    identity: idDoc,
    licence: licenceCard,
    permits: ['data:image/jpeg;base64,p1', 'data:image/jpeg;base64,p2'],
    ticket: {
      recordId: crypto.randomUUID(),
      ticketNumber: 'WB-1',
      transporter: 'Imperial',
      netWeight: 1,
    },
  };

  it('is the larger visitor payload of spec §3, accepted by the contract', () => {
    const body = realGateEntry(data, ['Driving licence expired on Jan 15, 2025.']);
    expect(body).toMatchObject({
      category: 'visitor',
      plateNumber: 'KP35XKGP',
      extractedPlate: 'KP 35 XK GP',
      plateImage: 'data:image/jpeg;base64,plate',
      vehicleDiskImage: null,
      vehicleLicenceDiscId: null,
      driverFaceImage: 'data:image/jpeg;base64,face',
      driverName: 'T MOKOENA',
      driverIdNumber: '8001015009087',
      identityDocumentId: idDoc.recordId,
      driverLicenseImage: licenceCard.image,
      driversLicenceId: licenceCard.recordId,
      driverPassportNumber: null,
      passportRecordId: null,
      permitImages: data.permits,
      transportName: 'Imperial',
      weighbridgeTicketId: data.ticket!.recordId,
      vehicleApproved: false,
      faceVerified: false,
      entryGranted: true,
      warnings: ['Driving licence expired on Jan 15, 2025.'],
    });
    expect(GrantEntryBodySchema.safeParse(body).success).toBe(true);
  });

  it('cites the captures the server stored when reading, instead of sending the images again', () => {
    const plateCapture = crypto.randomUUID();
    const faceCapture = crypto.randomUUID();
    const body = realGateEntry(
      {
        ...data,
        plate: { ...data.plate!, captureId: plateCapture },
        face: { ...data.face!, captureId: faceCapture },
      },
      [],
    );
    expect(body).toMatchObject({
      plateImageCaptureId: plateCapture,
      driverFaceImageCaptureId: faceCapture,
      driverLicenseImage: licenceCard.image,
    });
    expect(body).not.toHaveProperty('plateImage');
    expect(body).not.toHaveProperty('driverFaceImage');
    expect(GrantEntryBodySchema.safeParse(body).success).toBe(true);
  });

  it("cites the trailers' plates and the discs scanned for them (issue 21)", () => {
    const discId = crypto.randomUUID();
    const body = realGateEntry(
      {
        ...data,
        trailers: [
          {
            plateNumber: 'TR12ABGP',
            disc: {
              recordId: discId,
              image: 'data:image/jpeg;base64,trailer',
              reading: { ...discFromFields({}), licenceNumber: 'TR12ABGP' },
            },
          },
          { plateNumber: 'TR34CDGP', disc: null },
        ],
      },
      [],
    );
    expect(body).toMatchObject({
      trailerPlates: ['TR12ABGP', 'TR34CDGP'],
      trailerLicenceDiscIds: [discId],
    });
    expect(GrantEntryBodySchema.safeParse(body).success).toBe(true);
    expect(realGateEntry(data, [])).toMatchObject({ trailerPlates: [], trailerLicenceDiscIds: [] });
  });

  it('needs the plate step', () => {
    expect(() => realGateEntry({ ...data, plate: null }, [])).toThrow();
  });
});

describe('plateWarning', () => {
  const plate = {
    plateNumber: 'KP35XKGP',
    extractedPlate: 'KP 35 XK GB',
    isTypedByGuard: true,
    image: 'data:image/jpeg;base64,plate',
    approved: true,
    driverName: null,
    company: null,
  };

  it('names the typed plate and what the camera read', () => {
    expect(plateWarning(plate)).toBe(
      'Plate entered by the guard as KP 35 XK GP: the camera read "KP 35 XK GB".',
    );
  });

  it('says when the camera read nothing', () => {
    expect(plateWarning({ ...plate, extractedPlate: null })).toBe(
      'Plate entered by the guard as KP 35 XK GP: the camera could not read it.',
    );
  });

  it('shows the note in English exactly as it is sent, and in the chosen language (issue 19)', async () => {
    const english = i18next.getFixedT('en', 'realGate');
    for (const typed of [plate, { ...plate, extractedPlate: null }]) {
      expect(plateWarningText(english, typed)).toBe(plateWarning(typed));
    }
    expect(plateWarningText(english, { ...plate, isTypedByGuard: false })).toBeNull();
    await i18next.changeLanguage('zu');
    expect(plateWarningText(i18next.getFixedT(null, 'realGate'), plate)).toBe(
      'Ipuleti lifakwe ngunogada njengo-KP 35 XK GP: ikhamera ifunde "KP 35 XK GB".',
    );
    // What goes to the server stays English whatever the screen speaks.
    expect(plateWarning(plate)).toMatch(/^Plate entered by the guard/);
  });

  it('says nothing for a plate the camera read, or the same plate typed again', () => {
    expect(plateWarning({ ...plate, isTypedByGuard: false })).toBeNull();
    expect(plateWarning({ ...plate, extractedPlate: 'kp 35-xk gp' })).toBeNull();
    expect(plateWarning(null)).toBeNull();
  });
});
