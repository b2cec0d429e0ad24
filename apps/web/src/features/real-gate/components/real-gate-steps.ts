import type { OcrResponse, OcrType } from '@boomgate/contracts/ocr';

import type { GuideShape } from '@/components/camera/guide';
import { getErrorMessage, isHttpError } from '@/lib/api-client';
import { i18next } from '@/lib/i18n';
import { imageOrCapture } from '@/lib/api/captures';
import { LicenceDiscFailure, readAndSaveLicenceDisc } from '@/lib/api/licence-discs';
import { type OcrFields, ocrFields, plateFromOcr, readDocument, textField } from '@/lib/api/ocr';
import { saveWeighbridgeTicket, ticketBody, ticketFromFields } from '@/lib/api/weighbridge-tickets';
import { formatPlate } from '@/lib/plates';

import { verifyVehicle } from '@/lib/api/vehicles';

import { saveDriversLicence, saveIdentityDocument, savePassport } from '../api/real-gate';

import { identityFromFields, licenceFromFields, passportFromFields } from './document-readings';
import type { PlateData, RealGateData, StepId } from './real-gate-machine';

export type StepMeta = {
  number: number;
  title: string;
  description: string;
  cameraTitle?: string;
  guide?: GuideShape;
};

export const STEP_SHAPE: Record<StepId, { number: number; guide?: GuideShape }> = {
  plate: { number: 1, guide: 'wide' },
  disc: { number: 2, guide: 'card' },
  face: { number: 3, guide: 'oval' },
  id: { number: 4, guide: 'card' },
  licence: { number: 5, guide: 'card' },
  passport: { number: 6, guide: 'card' },
  permits: { number: 7, guide: 'page' },
  ticket: { number: 8, guide: 'page' },
  complete: { number: 9 },
};

/**
 * Each step's number, guide and texts in the chosen language (namespace `realGate`, spec §4's
 * English as the source).
 */
export function stepMeta(step: StepId): StepMeta {
  const text = (key: string) => i18next.t(`realGate:steps.${step}.${key}`);
  return {
    ...STEP_SHAPE[step],
    title: text('title'),
    description: text('description'),
    ...(step === 'complete' ? {} : { cameraTitle: text('cameraTitle') }),
  };
}

export type StepToast = { title: string; description: string; variant?: 'destructive' };

/** A step that did not succeed: the line shown on the step and the toast. */
export class StepFailure extends Error {
  constructor(
    readonly stepError: string,
    readonly toast: StepToast,
    /** What the engine did read, when it found text but not what the step needs. */
    readonly readText: string | null = null,
    /** Issue 15: the capture the server stored of the unread photo, cited by a typed value. */
    readonly captureId: string | null = null,
  ) {
    super(stepError);
  }
}

export type StepOutcome = { data: Partial<RealGateData>; toast: StepToast };

/** A text of the Real Gate screen in the chosen language. */
const tr = (key: string, options?: Record<string, unknown>) =>
  i18next.t(`realGate:${key}`, options ?? {});

const captured = (step: StepId): StepToast => ({
  title: tr('toast.captured'),
  description: tr('toast.processedSuccessfully', { title: stepMeta(step).title }),
});

const ocrFailed = (error: unknown, stepError: string) =>
  new StepFailure(stepError, {
    variant: 'destructive',
    title: tr('toast.ocrFailed'),
    description: getErrorMessage(error, tr('toast.failedToProcess')),
  });

/** `what`: the document's key under `documents` in the catalogue. */
const saveFailed = (error: unknown, what: string) =>
  new StepFailure(tr('toast.couldNotSave', { what: tr(`documents.${what}`) }), {
    variant: 'destructive',
    title: tr('toast.saveFailed'),
    description: getErrorMessage(
      error,
      tr('toast.failedToSaveWhat', { what: tr(`documents.${what}`) }),
    ),
  });

/**
 * Reads a document: the response (null when the engine found nothing: ok false, or 422) and the
 * capture the server stored the image as (null when it stored none).
 */
async function read(
  image: string,
  type: OcrType,
  stepError: string,
): Promise<{ response: OcrResponse | null; captureId: string | null }> {
  try {
    const response = await readDocument(image, type);
    return { response: response.ok ? response : null, captureId: response.captureId };
  } catch (error) {
    if (isHttpError(error, 422)) return { response: null, captureId: null };
    throw ocrFailed(error, stepError);
  }
}

/** The fields of a read, or none when the response holds no JSON object. */
function fieldsOf(response: OcrResponse | null): OcrFields {
  if (!response) return {};
  try {
    return ocrFields(response);
  } catch {
    return {};
  }
}

async function save(call: () => Promise<{ id: string }>, what: string): Promise<string> {
  try {
    return (await call()).id;
  } catch (error) {
    throw saveFailed(error, what);
  }
}

/** OCR text as kept with an entry: one line, at most 40 characters (the entry's limit). */
function asReadText(text: string | undefined): string | null {
  const line = (text ?? '').replace(/\s+/g, ' ').trim().slice(0, 40).trim();
  return line || null;
}

/** Checks the plate against the approved vehicles: spec §4 'Vehicle Approved' or not. */
async function verifyPlate(
  plateNumber: string,
  reading: Pick<
    PlateData,
    'image' | 'captureId' | 'extractedPlate' | 'isTypedByGuard' | 'isUncertain'
  >,
): Promise<{ plate: PlateData; toast: StepToast }> {
  const verification = await verifyVehicle(plateNumber).catch(() => null);
  const vehicle = verification?.approved ? verification.vehicle : null;
  const plate = formatPlate(plateNumber);
  return {
    plate: {
      plateNumber,
      ...reading,
      approved: Boolean(verification?.approved),
      driverName: vehicle?.driverName ?? null,
      company: vehicle?.company ?? null,
      rigTrailers: vehicle?.trailers?.map((trailer) => trailer.plateNumber) ?? [],
    },
    toast: vehicle
      ? {
          title: tr('summary.vehicleApproved'),
          description: vehicle.company
            ? tr('toast.vehicleApprovedDescriptionCompany', {
                plate,
                driver: vehicle.driverName,
                company: vehicle.company,
              })
            : tr('toast.vehicleApprovedDescription', { plate, driver: vehicle.driverName }),
        }
      : {
          title: tr('summary.vehicleNotPreRegistered'),
          description: tr('toast.vehicleNotPreRegisteredDescription', { plate }),
        },
  };
}

async function processPlate(image: string): Promise<StepOutcome> {
  const stepError = tr('toast.couldNotReadPlate');
  const { response, captureId } = await read(image, 'plate', stepError);
  const plateNumber = response ? plateFromOcr(response) : null;
  if (!response || !plateNumber) {
    throw new StepFailure(
      stepError,
      {
        variant: 'destructive',
        title: tr('toast.noPlateFound'),
        description: tr('toast.betterLighting'),
      },
      asReadText(response?.text),
      captureId,
    );
  }
  const { plate, toast } = await verifyPlate(plateNumber, {
    image,
    captureId,
    extractedPlate:
      response.displayPlate ??
      textField(response.fields, 'displayPlate', 'extractedPlate') ??
      formatPlate(plateNumber),
    isTypedByGuard: false,
    isUncertain:
      response.reading?.type === 'plate'
        ? response.reading.uncertain.includes('plateNumber')
        : false,
  });
  return { data: { plate }, toast };
}

/**
 * A plate the guard typed (normalised, spec §5) for the photo the camera could not read or
 * misread: checked again like a read plate. `extractedPlate` stays what the camera read.
 */
export function checkTypedPlate(
  plateNumber: string,
  photo: Pick<PlateData, 'image' | 'captureId' | 'extractedPlate'>,
): Promise<{ plate: PlateData; toast: StepToast }> {
  return verifyPlate(plateNumber, { ...photo, isTypedByGuard: true });
}

const discFailure = () =>
  new StepFailure(tr('toast.couldNotExtractDisc'), {
    variant: 'destructive',
    title: tr('toast.discScanFailed'),
    description: tr('toast.retryOrSkipDisc'),
  });

async function processDisc(image: string): Promise<StepOutcome> {
  try {
    return { data: { disc: await readAndSaveLicenceDisc(image) }, toast: captured('disc') };
  } catch (failure) {
    if (!(failure instanceof LicenceDiscFailure)) throw failure;
    throw failure.reason === 'unread' ? discFailure() : saveFailed(failure.cause, 'licenceDisc');
  }
}

async function processFace(image: string): Promise<StepOutcome> {
  // A quality check only: the step succeeds on capture, and a problem is noted for the guard.
  let note: string | null = null;
  let captureId: string | null = null;
  try {
    const response = await readDocument(image, 'face');
    captureId = response.captureId;
    if (!response.ok) note = response.message ?? tr('toast.noClearFace');
    else if (response.warnings?.length) note = response.warnings.join(' ');
  } catch (error) {
    if (isHttpError(error)) note = getErrorMessage(error, '') || null;
  }
  return {
    data: { face: { image, captureId, note } },
    toast: note ? { title: tr('toast.faceCaptured'), description: note } : captured('face'),
  };
}

async function processIdentity(image: string): Promise<StepOutcome> {
  const { response, captureId } = await read(image, 'id', tr('toast.couldNotReadId'));
  const reading = identityFromFields(fieldsOf(response));
  const recordId = await save(
    () =>
      saveIdentityDocument({
        ...reading,
        ...imageOrCapture('sourceImageFront', image, captureId),
      }),
    'idDocument',
  );
  return {
    data: { identity: { recordId, image, captureId, reading, typed: response?.reading ?? null } },
    toast: reading.identityNumber
      ? captured('id')
      : {
          title: tr('toast.noDataFound'),
          description: tr('toast.noIdNumber'),
        },
  };
}

async function processLicence(image: string): Promise<StepOutcome> {
  const { response, captureId } = await read(image, 'license', tr('toast.couldNotReadLicence'));
  const reading = licenceFromFields(fieldsOf(response));
  const recordId = await save(
    () =>
      saveDriversLicence({
        ...reading,
        ...imageOrCapture('sourceImageFront', image, captureId),
        barcodeType: 'PDF417',
      }),
    'driversLicence',
  );
  return {
    data: { licence: { recordId, image, captureId, reading, typed: response?.reading ?? null } },
    toast:
      reading.licenceNumber || reading.idNumber
        ? captured('licence')
        : {
            title: tr('toast.noDataFound'),
            description: tr('toast.noLicenceDetails'),
          },
  };
}

async function processPassport(image: string): Promise<StepOutcome> {
  const { response, captureId } = await read(image, 'passport', tr('toast.couldNotReadPassport'));
  const reading = passportFromFields(fieldsOf(response));
  const recordId = await save(
    () => savePassport({ ...reading, ...imageOrCapture('passportImage', image, captureId) }),
    'passport',
  );
  return {
    data: { passport: { recordId, image, captureId, reading, typed: response?.reading ?? null } },
    toast: reading.passportNumber
      ? captured('passport')
      : { title: tr('summary.mrzFailed'), description: tr('toast.checkPassport') },
  };
}

async function processTicket(image: string): Promise<StepOutcome> {
  let response: OcrResponse | null;
  let captureId: string | null;
  try {
    ({ response, captureId } = await read(image, 'weighbridge', tr('toast.ticketFailedStep')));
  } catch (error) {
    throw new StepFailure(tr('toast.ticketFailedStep'), {
      variant: 'destructive',
      title: tr('toast.ticketFailed'),
      description: getErrorMessage(error, tr('toast.failedToProcess')),
    });
  }
  const reading = ticketFromFields(fieldsOf(response), response?.text ?? '');
  if (!reading.ticketNumber) {
    throw new StepFailure(
      tr('toast.noTicketNumber'),
      {
        variant: 'destructive',
        title: tr('toast.ticketFailed'),
        description: tr('toast.noTicketNumber'),
      },
      null,
      captureId,
    );
  }
  const recordId = await save(
    () => saveWeighbridgeTicket(ticketBody(reading, image, captureId)),
    'weighbridgeTicket',
  );
  return {
    data: {
      ticket: {
        recordId,
        ticketNumber: reading.ticketNumber,
        transporter: reading.transporter,
        netWeight: reading.netWeight,
      },
    },
    toast: captured('ticket'),
  };
}

/** Reads and saves the document of a capture step. Throws StepFailure when the step fails. */
export async function processCapture(step: StepId, image: string): Promise<StepOutcome> {
  switch (step) {
    case 'plate':
      return processPlate(image);
    case 'disc':
      return processDisc(image);
    case 'face':
      return processFace(image);
    case 'id':
      return processIdentity(image);
    case 'licence':
      return processLicence(image);
    case 'passport':
      return processPassport(image);
    case 'ticket':
      return processTicket(image);
    case 'permits':
    case 'complete':
      throw new Error(`The ${step} step has no document to read`);
  }
}
