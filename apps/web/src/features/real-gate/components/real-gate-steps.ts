import type { OcrResponse, OcrType } from '@boomgate/contracts/ocr';

import type { GuideShape } from '@/components/camera/guide';
import { getErrorMessage, isHttpError } from '@/lib/api-client';
import { imageOrCapture } from '@/lib/api/captures';
import {
  hasExtractedData,
  type OcrFields,
  ocrFields,
  plateFromOcr,
  readDocument,
  textField,
} from '@/lib/api/ocr';
import { saveWeighbridgeTicket, ticketBody, ticketFromFields } from '@/lib/api/weighbridge-tickets';
import { formatPlate } from '@/lib/plates';

import {
  saveDriversLicence,
  saveIdentityDocument,
  saveLicenceDisc,
  savePassport,
  verifyVehicle,
} from '../api/real-gate';

import {
  discFromFields,
  identityFromFields,
  licenceFromFields,
  passportFromFields,
} from './document-readings';
import type { PlateData, RealGateData, StepId } from './real-gate-machine';

export type StepMeta = {
  number: number;
  title: string;
  description: string;
  cameraTitle?: string;
  guide?: GuideShape;
};

export const STEP_META: Record<StepId, StepMeta> = {
  plate: {
    number: 1,
    title: 'Number Plate',
    description: 'Scan the vehicle licence plate',
    cameraTitle: 'Scan Number Plate',
    guide: 'wide',
  },
  disc: {
    number: 2,
    title: 'Licence Disc',
    description: 'Scan the licence disc on the windscreen',
    cameraTitle: 'Scan Licence Disc',
    guide: 'card',
  },
  face: {
    number: 3,
    title: 'Driver Face',
    description: "Photograph the driver's face",
    cameraTitle: 'Capture Driver Face',
    guide: 'oval',
  },
  id: {
    number: 4,
    title: 'ID Document',
    description: "Scan the driver's ID card or ID book",
    cameraTitle: 'Scan ID Document',
    guide: 'card',
  },
  licence: {
    number: 5,
    title: 'Driver Licence',
    description: "Scan the back of the driver's licence card (barcode)",
    cameraTitle: 'Scan Driver Licence',
    guide: 'card',
  },
  passport: {
    number: 6,
    title: 'Passport',
    description: 'Foreign drivers: scan the passport photo page (optional)',
    cameraTitle: 'Scan Passport',
    guide: 'card',
  },
  permits: {
    number: 7,
    title: 'Permits',
    description: 'Photograph the permits the driver carries (up to 5)',
    cameraTitle: 'Capture Permit',
    guide: 'page',
  },
  ticket: {
    number: 8,
    title: 'Mine Ticket',
    description: 'Scan the weighbridge (mine) ticket (optional)',
    cameraTitle: 'Scan Mine Ticket',
    guide: 'page',
  },
  complete: { number: 9, title: 'Complete', description: 'Review the checks and grant entry' },
};

export type StepToast = { title: string; description: string; variant?: 'destructive' };

/** A step that did not succeed: the line shown on the step and the toast. */
export class StepFailure extends Error {
  constructor(
    readonly stepError: string,
    readonly toast: StepToast,
    /** What the engine did read, when it found text but not what the step needs. */
    readonly readText: string | null = null,
  ) {
    super(stepError);
  }
}

export type StepOutcome = { data: Partial<RealGateData>; toast: StepToast };

const captured = (step: StepId): StepToast => ({
  title: 'Captured',
  description: `${STEP_META[step].title} processed successfully`,
});

const ocrFailed = (error: unknown, stepError: string) =>
  new StepFailure(stepError, {
    variant: 'destructive',
    title: 'OCR Failed',
    description: getErrorMessage(error, 'Failed to process image. Please try again.'),
  });

const saveFailed = (error: unknown, what: string) =>
  new StepFailure(`Could not save the ${what}`, {
    variant: 'destructive',
    title: 'Save Failed',
    description: getErrorMessage(error, `Failed to save the ${what}`),
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
    },
    toast: vehicle
      ? {
          title: 'Vehicle Approved',
          description: `${plate} is pre-registered for ${vehicle.driverName}${vehicle.company ? ` (${vehicle.company})` : ''}.`,
        }
      : {
          title: 'Vehicle Not Pre-Registered',
          description: `${plate} is not pre-registered. Continue with manual verification.`,
        },
  };
}

async function processPlate(image: string): Promise<StepOutcome> {
  const stepError = 'Could not read plate number';
  const { response, captureId } = await read(image, 'plate', stepError);
  const plateNumber = response ? plateFromOcr(response) : null;
  if (!response || !plateNumber) {
    throw new StepFailure(
      stepError,
      {
        variant: 'destructive',
        title: 'No Plate Found',
        description: 'Please try again with better lighting',
      },
      asReadText(response?.text),
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

async function processDisc(image: string): Promise<StepOutcome> {
  const failure = new StepFailure('Could not extract disc data', {
    variant: 'destructive',
    title: 'Disc Scan Failed',
    description: 'Could not extract disc data; retry or skip',
  });
  let response: OcrResponse | null;
  let captureId: string | null;
  try {
    ({ response, captureId } = await read(image, 'disk', failure.stepError));
  } catch {
    throw failure;
  }
  const fields = fieldsOf(response);
  if (!hasExtractedData(fields)) throw failure;
  const reading = discFromFields(fields);
  if (!hasExtractedData(reading)) throw failure;
  const recordId = await save(
    () => saveLicenceDisc({ ...reading, ...imageOrCapture('discImage', image, captureId) }),
    'licence disc',
  );
  return { data: { disc: { recordId, image, captureId, reading } }, toast: captured('disc') };
}

async function processFace(image: string): Promise<StepOutcome> {
  // A quality check only: the step succeeds on capture, and a problem is noted for the guard.
  let note: string | null = null;
  let captureId: string | null = null;
  try {
    const response = await readDocument(image, 'face');
    captureId = response.captureId;
    if (!response.ok) note = response.message ?? 'No clear face was found in the photo.';
    else if (response.warnings?.length) note = response.warnings.join(' ');
  } catch (error) {
    if (isHttpError(error)) note = getErrorMessage(error, '') || null;
  }
  return {
    data: { face: { image, captureId, note } },
    toast: note ? { title: 'Face Captured', description: note } : captured('face'),
  };
}

async function processIdentity(image: string): Promise<StepOutcome> {
  const { response, captureId } = await read(image, 'id', 'Could not read the ID document');
  const reading = identityFromFields(fieldsOf(response));
  const recordId = await save(
    () =>
      saveIdentityDocument({
        ...reading,
        ...imageOrCapture('sourceImageFront', image, captureId),
      }),
    'ID document',
  );
  return {
    data: { identity: { recordId, image, captureId, reading, typed: response?.reading ?? null } },
    toast: reading.identityNumber
      ? captured('id')
      : {
          title: 'No Data Found',
          description: 'No ID number was read: check the document by hand.',
        },
  };
}

async function processLicence(image: string): Promise<StepOutcome> {
  const { response, captureId } = await read(
    image,
    'license',
    "Could not read the driver's licence",
  );
  const reading = licenceFromFields(fieldsOf(response));
  const recordId = await save(
    () =>
      saveDriversLicence({
        ...reading,
        ...imageOrCapture('sourceImageFront', image, captureId),
        barcodeType: 'PDF417',
      }),
    "driver's licence",
  );
  return {
    data: { licence: { recordId, image, captureId, reading, typed: response?.reading ?? null } },
    toast:
      reading.licenceNumber || reading.idNumber
        ? captured('licence')
        : {
            title: 'No Data Found',
            description: 'No licence details were read: check the licence by hand.',
          },
  };
}

async function processPassport(image: string): Promise<StepOutcome> {
  const { response, captureId } = await read(image, 'passport', 'Could not read the passport');
  const reading = passportFromFields(fieldsOf(response));
  const recordId = await save(
    () => savePassport({ ...reading, ...imageOrCapture('passportImage', image, captureId) }),
    'passport',
  );
  return {
    data: { passport: { recordId, image, captureId, reading, typed: response?.reading ?? null } },
    toast: reading.passportNumber
      ? captured('passport')
      : { title: 'MRZ extraction failed', description: 'Check the passport details by hand.' },
  };
}

async function processTicket(image: string): Promise<StepOutcome> {
  let response: OcrResponse | null;
  let captureId: string | null;
  try {
    ({ response, captureId } = await read(image, 'weighbridge', 'Ticket processing failed'));
  } catch (error) {
    throw new StepFailure('Ticket processing failed', {
      variant: 'destructive',
      title: 'Ticket Processing Failed',
      description: getErrorMessage(error, 'Failed to process image. Please try again.'),
    });
  }
  const reading = ticketFromFields(fieldsOf(response), response?.text ?? '');
  if (!reading.ticketNumber) {
    throw new StepFailure('No ticket number found', {
      variant: 'destructive',
      title: 'Ticket Processing Failed',
      description: 'No ticket number found',
    });
  }
  const recordId = await save(
    () => saveWeighbridgeTicket(ticketBody(reading, image, captureId)),
    'weighbridge ticket',
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
