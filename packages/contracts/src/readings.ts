import { z } from 'zod';

/**
 * Typed readings (issue 14): what the engine read from one document image, field by field, with
 * how sure it is and where each value came from. It is what packages/vision's `toReading` makes of
 * a read, what the server stores on the capture (jsonb, validated with these schemas) and answers
 * as `reading` from POST /api/ocr, and what the screens show. A value is never shown without a
 * warning unless it is absent from `uncertain`.
 */

/** Where a value came from: a barcode or check-digit-verified MRZ, local OCR, the AI provider, or the guard typing it. */
export const READING_SOURCES = ['barcode', 'mrz', 'ocr', 'ai', 'guard'] as const;
export const ReadingSourceSchema = z.enum(READING_SOURCES);
export type ReadingSource = z.infer<typeof ReadingSourceSchema>;

/** One value with its confidence (0..1) and source. */
export const readingField = <T extends z.ZodType>(value: T) =>
  z.object({ value, confidence: z.number().min(0).max(1), source: ReadingSourceSchema }).strict();

const text = () => readingField(z.string().max(2_000));
const number = () => readingField(z.number());
const texts = () => readingField(z.array(z.string().max(500)).max(50));

/** Every field is optional: a field the engine did not read is absent, never an empty value. */
const reading = <T extends string, F extends z.ZodRawShape>(type: T, fields: F) =>
  z
    .object({
      type: z.literal(type),
      fields: z.object(fields).partial().strict(),
      /** Names of fields the engine could not confirm: the guard must check them. */
      uncertain: z.array(z.string().max(60)).max(60),
    })
    .strict();

export const PlateReadingSchema = reading('plate', {
  /** Lookup form (normalisePlate). */
  plateNumber: text(),
  /** Spec §5 display form (formatPlate). */
  displayPlate: text(),
  /** The plate layout matched, e.g. 'ZA-GP'. */
  pattern: text(),
});

export const DiskReadingSchema = reading('disk', {
  /** The vehicle's plate (licence number), lookup form. */
  licenceNumber: text(),
  vehicleRegisterNo: text(),
  vin: text(),
  engineNo: text(),
  make: text(),
  model: text(),
  description: text(),
  colour: text(),
  dateOfExpiry: text(),
  controlNumber: text(),
  discNumber: text(),
  /** Kilograms. */
  tare: number(),
  gvm: number(),
  dateOfTest: text(),
  fees: text(),
});

export const LicenseReadingSchema = reading('license', {
  nameOnCard: text(),
  surname: text(),
  initials: text(),
  idNumber: text(),
  licenceNumber: text(),
  validFrom: text(),
  validTo: text(),
  dateOfBirth: text(),
  gender: text(),
  vehicleCodes: texts(),
  vehicleRestrictions: texts(),
  driverRestrictions: text(),
  prdpCodes: texts(),
  prdpExpiry: text(),
});

export const IdReadingSchema = reading('id', {
  identityNumber: text(),
  surname: text(),
  givenNames: text(),
  sex: text(),
  nationality: text(),
  dateOfBirth: text(),
  countryOfBirth: text(),
  status: text(),
  dateOfIssue: text(),
  dateOfExpiry: text(),
  cardNumber: text(),
});

export const PassportReadingSchema = reading('passport', {
  passportNumber: text(),
  surname: text(),
  givenNames: text(),
  nationality: text(),
  issuingCountry: text(),
  dateOfBirth: text(),
  sex: text(),
  expiryDate: text(),
  personalNumber: text(),
  mrzLines: texts(),
  mrzFormat: text(),
});

export const WeighbridgeReadingSchema = reading('weighbridge', {
  ticketNumber: text(),
  site: text(),
  vehicleReg: text(),
  trailerRegs: texts(),
  product: text(),
  customer: text(),
  transporter: text(),
  supplier: text(),
  /** Kilograms. */
  tareWeight: number(),
  grossWeight: number(),
  netWeight: number(),
  tareDateTime: text(),
  grossDateTime: text(),
  sealNumbers: texts(),
  tareOperator: text(),
  grossOperator: text(),
});

export const ReadingSchema = z.discriminatedUnion('type', [
  PlateReadingSchema,
  DiskReadingSchema,
  LicenseReadingSchema,
  IdReadingSchema,
  PassportReadingSchema,
  WeighbridgeReadingSchema,
]);
export type Reading = z.infer<typeof ReadingSchema>;
export type ReadingType = Reading['type'];
export type ReadingOf<T extends ReadingType> = Extract<Reading, { type: T }>;
export type ReadingFieldOf<T extends ReadingType> = keyof ReadingOf<T>['fields'] & string;
export type ReadingFieldValue = { value: unknown; confidence: number; source: ReadingSource };

export const READING_SCHEMAS = {
  plate: PlateReadingSchema,
  disk: DiskReadingSchema,
  license: LicenseReadingSchema,
  id: IdReadingSchema,
  passport: PassportReadingSchema,
  weighbridge: WeighbridgeReadingSchema,
} as const;
export const READING_TYPES = Object.keys(READING_SCHEMAS) as ReadingType[];

/** The kind of value a field holds, from the schema itself (converters coerce to it). */
export type ReadingValueKind = 'text' | 'number' | 'texts';

/** Field names and value kinds of one reading type, in schema order. */
export function readingFieldKinds(type: ReadingType): Record<string, ReadingValueKind> {
  const fields = READING_SCHEMAS[type].shape.fields.shape as Record<string, z.ZodType>;
  const kinds: Record<string, ReadingValueKind> = {};
  for (const [name, optional] of Object.entries(fields)) {
    const value = (optional as z.ZodOptional<ReturnType<typeof text>>).unwrap().shape
      .value as z.ZodType;
    kinds[name] =
      value instanceof z.ZodNumber ? 'number' : value instanceof z.ZodArray ? 'texts' : 'text';
  }
  return kinds;
}

/** The value of a field, or null when it was not read. */
export function readingValue<T extends ReadingType>(
  reading: ReadingOf<T> | null | undefined,
  field: ReadingFieldOf<T>,
): ReadingOf<T>['fields'][ReadingFieldOf<T>] extends { value: infer V } | undefined
  ? V | null
  : never {
  const entry = (reading?.fields as Record<string, ReadingFieldValue | undefined> | undefined)?.[
    field
  ];
  return (entry?.value ?? null) as never;
}

/** True when the engine could not confirm the field (or did not read it): the guard must check it. */
export const isUncertain = (reading: Reading | null | undefined, field: string): boolean =>
  !reading || reading.uncertain.includes(field) || !(field in reading.fields);
