import { addMonths, format, isValid, parseISO, startOfDay } from 'date-fns';

import {
  type CreateApprovedVehicleBody,
  CreateApprovedVehicleBodySchema,
} from '@boomgate/contracts/approved-vehicles';

import { normalisePlate } from '@/lib/plates';

import { type TrailerValues, toTrailers } from './trailer-values';

/** Spec §9: an approval lasts three months unless the form says otherwise. */
export const APPROVAL_MONTHS = 3;

export type PreArrivalValues = {
  plateNumber: string;
  driverName: string;
  driverLicense: string;
  company: string;
  /** YYYY-MM-DD; empty means no end date. */
  approvedUntil: string;
  driverPhoto: string | null;
  biometricConsent: boolean;
  /** Issue 21: a rig's trailers (none for a rigid vehicle). */
  trailers: TrailerValues[];
};

export function defaultApprovalDate(today: Date = new Date()): string {
  return format(addMonths(today, APPROVAL_MONTHS), 'yyyy-MM-dd');
}

export function emptyPreArrivalValues(plate = '', today: Date = new Date()): PreArrivalValues {
  return {
    plateNumber: plate,
    driverName: '',
    driverLicense: '',
    company: '',
    approvedUntil: defaultApprovalDate(today),
    driverPhoto: null,
    biometricConsent: false,
    trailers: [],
  };
}

/** A problem with the form: its `vehicles:preArrival.problems` key; `detail` is the contract's words. */
export type FormProblem = {
  key:
    | 'missing'
    | 'invalidPlate'
    | 'photoRequired'
    | 'consentRequired'
    | 'invalidDate'
    | 'trailerPlate'
    | 'trailers'
    | 'invalid';
  detail?: string;
  /** The trailer (1 or 2) a `trailerPlate` problem is about. */
  trailer?: number;
};

/**
 * Spec §5 pre-arrival rules, in the order the guard sees them: plate and driver name, a valid
 * plate, the driver photo, the driver's consent (POPIA), a usable approval date, the trailers
 * (issue 21: each with a plate, at most two, none twice). Then the values
 * as sent: plate upper-cased, trimmed and stripped to letters and digits, names trimmed, an empty
 * licence or company as null.
 */
export function toRegistration(
  values: PreArrivalValues,
  today: Date = new Date(),
): { body: CreateApprovedVehicleBody } | { problem: FormProblem } {
  const plateNumber = normalisePlate(values.plateNumber.trim());
  const driverName = values.driverName.trim();
  if (plateNumber === '' || driverName === '') {
    return {
      problem: { key: 'missing' },
    };
  }
  if (plateNumber.length < 2 || plateNumber.length > 10) {
    return {
      problem: { key: 'invalidPlate' },
    };
  }
  if (!values.driverPhoto) {
    return {
      problem: { key: 'photoRequired' },
    };
  }
  if (!values.biometricConsent) {
    return {
      problem: { key: 'consentRequired' },
    };
  }
  const approvedUntil = values.approvedUntil.trim();
  if (approvedUntil !== '') {
    const date = parseISO(approvedUntil);
    if (!isValid(date) || date < startOfDay(today)) {
      return {
        problem: { key: 'invalidDate' },
      };
    }
  }
  // Issue 21: a rig's trailers, checked by the contract's TrailersSchema.
  const rig = toTrailers(values.trailers);
  if ('problem' in rig) {
    const { needsPlate, detail } = rig.problem;
    return {
      problem: needsPlate
        ? { key: 'trailerPlate', trailer: needsPlate }
        : { key: 'trailers', detail: detail ?? '' },
    };
  }

  const body: CreateApprovedVehicleBody = {
    plateNumber,
    driverName,
    driverLicense: values.driverLicense.trim() || null,
    company: values.company.trim() || null,
    driverPhoto: values.driverPhoto,
    approvedUntil: approvedUntil || null,
    isActive: true,
    biometricConsent: true,
    trailers: rig.trailers,
  };
  const checked = CreateApprovedVehicleBodySchema.safeParse(body);
  if (!checked.success) {
    return {
      problem: { key: 'invalid', detail: checked.error.issues[0]?.message ?? '' },
    };
  }
  return { body };
}
