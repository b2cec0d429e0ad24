/** OCR of the front of a smart ID card, green ID book or driving-licence card: labelled fields. */
import { findDates, findLabelledValue } from './labelled-text';
import { checkSaIdNumber, extractSaIdNumber } from './sa-id';

const LICENCE_CODES = /\b(A1|A|B|C1|C|EB|EC1|EC)\b/g;

export function extractIdFront(text: string, now?: Date) {
  const identityNumber = extractSaIdNumber(text);
  const id = identityNumber ? checkSaIdNumber(identityNumber, now) : null;
  const dates = findDates(text);
  const dateOfBirthLabel = findLabelledValue(text, /date\s*of\s*birth|geboortedatum/i);
  const sexLabel = findLabelledValue(text, /\bsex\b|geslag/i);
  return {
    surname: findLabelledValue(text, /\bsurname\b|\bvan\b/i),
    givenNames: findLabelledValue(text, /\b(?:names|forenames|voorname)\b/i),
    identityNumber,
    dateOfBirth:
      (dateOfBirthLabel ? findDates(dateOfBirthLabel)[0] : undefined) ?? id?.dateOfBirth ?? null,
    sex:
      /^\s*[MF]\b/i
        .exec(sexLabel ?? '')?.[0]
        .trim()
        .toUpperCase() ??
      id?.sex ??
      null,
    nationality: findLabelledValue(text, /nationality|nasionaliteit/i),
    countryOfBirth: findLabelledValue(
      text,
      /country\s*of\s*birth|district\s*or\s*country\s*of\s*birth|geboorteland/i,
    ),
    status: findLabelledValue(text, /\bstatus\b/i),
    dateOfIssue: (() => {
      const v = findLabelledValue(text, /date\s*of\s*issue|datum\s*uitgereik/i);
      return v ? (findDates(v)[0] ?? null) : null;
    })(),
    idCheck: id,
    dates,
  };
}

export function extractLicenceFront(text: string, now?: Date) {
  const idNumber = extractSaIdNumber(text);
  const compact = text.replace(/[ \t]/g, '');
  const licenceNumber =
    [...compact.matchAll(/\b(\d{8}[0-9A-Z]{4})\b/g)]
      .map((m) => m[1]!)
      .find((n) => n !== idNumber && !/^\d{13}/.test(n)) ?? null;
  const dates = [...new Set(findDates(text))].sort();
  const id = idNumber ? checkSaIdNumber(idNumber, now) : null;
  const dateOfBirth = id?.dateOfBirth ?? null;
  const validity = dates.filter((d) => d !== dateOfBirth);
  const validTo = validity.length ? validity[validity.length - 1]! : null;
  const validFrom = validity.length >= 2 ? validity[validity.length - 2]! : null;
  const codeLine = findLabelledValue(text, /\bcode\b|\bkode\b/i) ?? '';
  const vehicleCodes = [...new Set([...codeLine.matchAll(LICENCE_CODES)].map((m) => m[1]!))];
  const surname = findLabelledValue(text, /\bsurname\b|\bvan\b/i);
  const initials = findLabelledValue(text, /\binitials\b|\bvoorletters\b/i);
  return {
    nameOnCard: [initials, surname].filter(Boolean).join(' ') || null,
    surname,
    initials,
    idNumber,
    licenceNumber,
    validFrom,
    validTo,
    dateOfBirth,
    vehicleCodes,
    idCheck: id,
  };
}
