import type { CorrectionInput } from '@boomgate/contracts/corrections';
import type { GrantEntryBody } from '@boomgate/contracts/entry-logs';
import { normalisePlate } from '@boomgate/contracts/plates';

import { imageOrCapture } from '@/lib/api/captures';
import type { TFunction } from '@/lib/i18n';
import { formatPlate } from '@/lib/plates';

import { manualValue } from './manual-entry';
import type { PlateData, RealGateData } from './real-gate-machine';

function firstDistinct(values: (string | null | undefined)[], count: number): (string | null)[] {
  const distinct = [...new Set(values.filter((value): value is string => Boolean(value?.trim())))];
  return Array.from({ length: count }, (_, index) => distinct[index] ?? null);
}

/**
 * Spec §5 precedence for the driver: the name on the driving licence wins, else the ID document's
 * given names with its surname; the ID document's ID number wins over the licence's; the ID
 * document's phone comes before the licence's phones.
 */
export function driverDetails(
  data: Pick<RealGateData, 'identity' | 'licence' | 'passport' | 'manual'>,
) {
  // Issue 15: an ID document the guard typed (its read failed) stands where the read one would.
  const identity = data.identity?.reading ?? (data.manual?.id ? typedIdentity(data) : undefined);
  const licence = data.licence?.reading;
  const passport = data.passport?.reading;

  let driverName: string | null = null;
  let driverSurname: string | null = null;
  if (licence?.nameOnCard) {
    driverName = licence.nameOnCard;
  } else if (identity?.givenNames || identity?.surname) {
    driverName = identity.givenNames;
    driverSurname = identity.surname;
  } else if (passport?.givenNames || passport?.surname) {
    driverName = passport.givenNames;
    driverSurname = passport.surname;
  }

  const [driverPhone1, driverPhone2, driverPhone3] = firstDistinct(
    [identity?.phone1, licence?.phone1, licence?.phone2, licence?.phone3, identity?.phone2],
    3,
  );

  return {
    driverName,
    driverSurname,
    driverIdNumber: identity?.identityNumber ?? licence?.idNumber ?? null,
    driverPhone1: driverPhone1 ?? null,
    driverPhone2: driverPhone2 ?? null,
    driverPhone3: driverPhone3 ?? null,
  };
}

function typedIdentity(data: Pick<RealGateData, 'manual'>) {
  return {
    identityNumber: manualValue(data, 'id', 'identityNumber'),
    givenNames: manualValue(data, 'id', 'givenNames'),
    surname: manualValue(data, 'id', 'surname'),
    phone1: null,
    phone2: null,
  };
}

/** A plate the guard typed: what the camera read of it (null: nothing), none when the same. */
function typedPlate(plate: PlateData | null): { typed: string; read: string | null } | null {
  if (!plate?.isTypedByGuard) return null;
  const typed = formatPlate(plate.plateNumber);
  if (plate.extractedPlate === null) return { typed, read: null };
  if (normalisePlate(plate.extractedPlate) === plate.plateNumber) return null;
  return { typed, read: plate.extractedPlate };
}

/**
 * A plate the guard typed is recorded as a warning, like the cross-checks: the entry keeps both
 * the plate checked (plateNumber) and what the camera read (extractedPlate). None when the guard
 * typed what the camera had read. Sent to the server as the guard's note, so always in English
 * (the same sentence as `realGate:crossChecks.plateTyped*` in English; a test keeps them equal).
 */
export function plateWarning(plate: PlateData | null): string | null {
  const note = typedPlate(plate);
  if (!note) return null;
  return note.read === null
    ? `Plate entered by the guard as ${note.typed}: the camera could not read it.`
    : `Plate entered by the guard as ${note.typed}: the camera read "${note.read}".`;
}

/** `plateWarning` as the guard reads it on the screen, in the chosen language (issue 19). */
export function plateWarningText(t: TFunction<'realGate'>, plate: PlateData | null): string | null {
  const note = typedPlate(plate);
  if (!note) return null;
  return note.read === null
    ? t('crossChecks.plateTypedUnread', { plate: note.typed })
    : t('crossChecks.plateTypedRead', { plate: note.typed, read: note.read });
}

/**
 * Issue 15: a plate the guard typed goes with the entry as the plate reading's correction: the
 * server keeps the camera's read value (confidence, source) beside it, with who and when.
 */
export function plateCorrections(plate: PlateData | null, isConfirmed = false): CorrectionInput[] {
  if (!plate?.isTypedByGuard && !(plate?.isUncertain && isConfirmed)) return [];
  return [
    {
      captureId: plate.captureId ?? null,
      readingType: 'plate',
      field: 'plateNumber',
      typedValue: plate.plateNumber,
    },
  ];
}

/** The real gate's entry (spec §3, the larger payload), with the guard's warnings. */
export function realGateEntry(data: RealGateData, warnings: string[]): GrantEntryBody {
  if (!data.plate) throw new Error('The plate step has not been completed');
  return {
    category: 'visitor',
    plateNumber: data.plate.plateNumber,
    extractedPlate: data.plate.extractedPlate,
    // Images the server already holds (read by POST /api/ocr) are cited, not sent again.
    ...imageOrCapture('plateImage', data.plate.image, data.plate.captureId),
    ...imageOrCapture('vehicleDiskImage', data.disc?.image ?? null, data.disc?.captureId),
    vehicleLicenceDiscId: data.disc?.recordId ?? null,
    ...imageOrCapture('driverFaceImage', data.face?.image ?? null, data.face?.captureId),
    ...driverDetails(data),
    identityDocumentId: data.identity?.recordId ?? null,
    ...imageOrCapture('driverLicenseImage', data.licence?.image ?? null, data.licence?.captureId),
    driversLicenceId: data.licence?.recordId ?? null,
    driverPassportNumber:
      data.passport?.reading.passportNumber ?? manualValue(data, 'passport', 'passportNumber'),
    ...imageOrCapture('passportImage', data.passport?.image ?? null, data.passport?.captureId),
    passportRecordId: data.passport?.recordId ?? null,
    permitImages: data.permits,
    transportName: data.ticket?.transporter ?? manualValue(data, 'ticket', 'transporter'),
    weighbridgeTicketId: data.ticket?.recordId ?? null,
    // Issue 21: the trailers presented and their discs, so the server checks the rig.
    trailerPlates: data.trailers.map((trailer) => trailer.plateNumber),
    trailerLicenceDiscIds: data.trailers.flatMap((trailer) =>
      trailer.disc ? [trailer.disc.recordId] : [],
    ),
    vehicleApproved: data.plate.approved,
    // The real gate has no face comparison: the guard checks the driver by eye.
    faceVerified: false,
    entryGranted: true,
    warnings: warnings.map((warning) => warning.slice(0, 300)).slice(0, 20),
  };
}
