import { addMonths, format, isValid, parseISO, startOfDay } from 'date-fns';

import {
  type CreateApprovedVehicleBody,
  CreateApprovedVehicleBodySchema,
} from '@boomgate/contracts/approved-vehicles';

import { normalisePlate } from '@/lib/plates';

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
  };
}

/** A problem with the form: its `vehicles:preArrival.problems` key; `detail` is the contract's words. */
export type FormProblem = {
  key: 'missing' | 'invalidPlate' | 'photoRequired' | 'consentRequired' | 'invalidDate' | 'invalid';
  detail?: string;
};

/**
 * Spec §5 pre-arrival rules, in the order the guard sees them: plate and driver name, a valid
 * plate, the driver photo, the driver's consent (POPIA), a usable approval date. Then the values
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

  const body: CreateApprovedVehicleBody = {
    plateNumber,
    driverName,
    driverLicense: values.driverLicense.trim() || null,
    company: values.company.trim() || null,
    driverPhoto: values.driverPhoto,
    approvedUntil: approvedUntil || null,
    isActive: true,
    biometricConsent: true,
  };
  const checked = CreateApprovedVehicleBodySchema.safeParse(body);
  if (!checked.success) {
    return {
      problem: { key: 'invalid', detail: checked.error.issues[0]?.message ?? '' },
    };
  }
  return { body };
}
