import type {
  DriversLicenceBody,
  IdentityDocumentBody,
  PassportBody,
} from '@boomgate/contracts/documents';

import { type OcrFields, textField } from '@/lib/api/ocr';

// The licence disc's fields are shared with every trailer disc (Real Gate, the incoming feed).
export { type Disc, discFromFields } from '@/lib/api/licence-discs';

/** A field as text no longer than the server accepts for it. */
const text = (fields: OcrFields, max: number, ...keys: string[]) =>
  textField(fields, ...keys)?.slice(0, max) ?? null;

/** Digits (and letters) of an identity number: slashes and spaces removed. */
const identityNumber = (fields: OcrFields, ...keys: string[]) =>
  text(fields, 20, ...keys)?.replace(/[\s/]/g, '') || null;

export function identityFromFields(fields: OcrFields) {
  return {
    identityNumber: identityNumber(fields, 'identityNumber', 'idNumber'),
    givenNames: text(fields, 120, 'givenNames'),
    surname: text(fields, 120, 'surname'),
    dateOfBirth: text(fields, 40, 'dateOfBirth'),
    countryOfBirth: text(fields, 60, 'countryOfBirth'),
    sex: text(fields, 10, 'sex'),
    nationality: text(fields, 60, 'nationality'),
    dateOfIssue: text(fields, 40, 'dateOfIssue'),
    dateOfExpiry: text(fields, 40, 'dateOfExpiry'),
    phone1: text(fields, 30, 'phone1'),
    phone2: text(fields, 30, 'phone2'),
  } satisfies Omit<IdentityDocumentBody, 'sourceImageFront'>;
}
export type Identity = ReturnType<typeof identityFromFields>;

export function licenceFromFields(fields: OcrFields) {
  return {
    licenceNumber: text(fields, 40, 'licenceNumber'),
    nameOnCard: text(fields, 120, 'nameOnCard'),
    idNumber: identityNumber(fields, 'idNumber'),
    validFrom: text(fields, 40, 'validFrom'),
    validTo: text(fields, 40, 'validTo'),
    vehicleCode: text(fields, 60, 'vehicleCode', 'vehicleCodes'),
    vehicleRestrictions: text(fields, 60, 'vehicleRestrictions'),
    prdpCode: text(fields, 40, 'prdpCode', 'prdpCodes'),
    prdpExpiry: text(fields, 40, 'prdpExpiry'),
    phone1: text(fields, 30, 'phone1'),
    phone2: text(fields, 30, 'phone2'),
    phone3: text(fields, 30, 'phone3'),
  } satisfies Omit<DriversLicenceBody, 'sourceImageFront' | 'barcodeType'>;
}
export type Licence = ReturnType<typeof licenceFromFields>;

export function passportFromFields(fields: OcrFields) {
  return {
    passportNumber: text(fields, 20, 'passportNumber', 'documentNumber'),
    surname: text(fields, 120, 'surname'),
    givenNames: text(fields, 120, 'givenNames'),
    nationality: text(fields, 60, 'nationality'),
    dateOfBirth: text(fields, 40, 'dateOfBirth'),
    sex: text(fields, 10, 'sex'),
    expiryDate: text(fields, 40, 'expiryDate'),
    issuingCountry: text(fields, 60, 'issuingCountry'),
  } satisfies Omit<PassportBody, 'passportImage'>;
}
export type Passport = ReturnType<typeof passportFromFields>;
