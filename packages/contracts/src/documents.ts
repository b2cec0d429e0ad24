import { z } from 'zod';

import { CorrectionListSchema, CorrectionSchema } from './corrections';
import {
  ImagePayloadSchema,
  ImageUrlSchema,
  OptionalCaptureIdSchema,
  oneImageSourceEach,
} from './images';
import { IdSchema, TimestampSchema } from './primitives';

const Text = (max = 120) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => value || null);
const Image = ImagePayloadSchema.nullish().transform((value) => value ?? null);
const Kilograms = z.coerce
  .number()
  .min(0)
  .max(1_000_000)
  .nullish()
  .transform((value) => value ?? null);

/** Every document save answers with the new record's id (spec §7). */
export const CreatedIdSchema = z.object({ id: IdSchema });

export const LicenceDiscBodySchema = z
  .object({
    discNumber: Text(40),
    licenceNumber: Text(40),
    vehicleRegisterNo: Text(40),
    /** Older clients send this spelling (spec §3). */
    vehRegisterNo: Text(40),
    vin: Text(40),
    engineNo: Text(40),
    make: Text(),
    description: Text(),
    fees: Text(40),
    gvm: Text(40),
    tare: Text(40),
    dateOfTest: Text(40),
    persons: Text(40),
    dateOfExpiry: Text(40),
    discImage: Image,
    /** The capture of this image (POST /api/ocr's captureId), instead of sending it again. */
    discImageCaptureId: OptionalCaptureIdSchema,
    /** Issue 15: fields the guard typed, confirmed or corrected, with the capture read. */
    corrections: CorrectionListSchema,
  })
  .strict()
  .superRefine(oneImageSourceEach(['discImage']));
export type LicenceDiscBody = z.input<typeof LicenceDiscBodySchema>;

export const IdentityDocumentBodySchema = z
  .object({
    identityNumber: Text(20),
    givenNames: Text(),
    surname: Text(),
    dateOfBirth: Text(40),
    countryOfBirth: Text(60),
    sex: Text(10),
    nationality: Text(60),
    dateOfIssue: Text(40),
    dateOfExpiry: Text(40),
    phone1: Text(30),
    phone2: Text(30),
    sourceImageFront: Image,
    /** The capture of this image (POST /api/ocr's captureId), instead of sending it again. */
    sourceImageFrontCaptureId: OptionalCaptureIdSchema,
    /** Issue 15: fields the guard typed, confirmed or corrected, with the capture read. */
    corrections: CorrectionListSchema,
  })
  .strict()
  .superRefine(oneImageSourceEach(['sourceImageFront']));
export type IdentityDocumentBody = z.input<typeof IdentityDocumentBodySchema>;

export const DriversLicenceBodySchema = z
  .object({
    licenceNumber: Text(40),
    nameOnCard: Text(),
    idNumber: Text(20),
    validFrom: Text(40),
    validTo: Text(40),
    vehicleCode: Text(60),
    vehicleRestrictions: Text(60),
    prdpCode: Text(40),
    prdpExpiry: Text(40),
    phone1: Text(30),
    phone2: Text(30),
    phone3: Text(30),
    sourceImageFront: Image,
    /** The capture of this image (POST /api/ocr's captureId), instead of sending it again. */
    sourceImageFrontCaptureId: OptionalCaptureIdSchema,
    barcodeType: z.literal('PDF417').default('PDF417'),
    /** Issue 15: fields the guard typed, confirmed or corrected, with the capture read. */
    corrections: CorrectionListSchema,
  })
  .strict()
  .superRefine(oneImageSourceEach(['sourceImageFront']));
export type DriversLicenceBody = z.input<typeof DriversLicenceBodySchema>;

export const PassportBodySchema = z
  .object({
    passportNumber: Text(20),
    surname: Text(),
    givenNames: Text(),
    nationality: Text(60),
    dateOfBirth: Text(40),
    sex: Text(10),
    expiryDate: Text(40),
    issuingCountry: Text(60),
    passportImage: Image,
    /** The capture of this image (POST /api/ocr's captureId), instead of sending it again. */
    passportImageCaptureId: OptionalCaptureIdSchema,
    /** Issue 15: fields the guard typed, confirmed or corrected, with the capture read. */
    corrections: CorrectionListSchema,
  })
  .strict()
  .superRefine(oneImageSourceEach(['passportImage']));
export type PassportBody = z.input<typeof PassportBodySchema>;

export const WeighbridgeTicketBodySchema = z
  .object({
    ticketNumber: Text(60),
    site: Text(),
    product: Text(),
    vehicleReg: Text(40),
    trailerRegs: z
      .union([z.string().max(200), z.array(z.string().max(40)).max(4)])
      .nullish()
      .transform((value) => (Array.isArray(value) ? value.join(', ') : value || null)),
    tareWeight: Kilograms,
    grossWeight: Kilograms,
    netWeight: Kilograms,
    customer: Text(),
    transporter: Text(),
    supplier: Text(),
    sealNumbers: z
      .union([z.string().max(200), z.array(z.string().max(40)).max(20)])
      .nullish()
      .transform((value) => (Array.isArray(value) ? value.join(', ') : value || null)),
    tareOperator: Text(),
    grossOperator: Text(),
    tareDateTime: Text(40),
    grossDateTime: Text(40),
    ticketImage: Image,
    /** The capture of this image (POST /api/ocr's captureId), instead of sending it again. */
    ticketImageCaptureId: OptionalCaptureIdSchema,
    rawOcrText: z
      .string()
      .max(20_000)
      .nullish()
      .transform((value) => value ?? null),
    /** Issue 15: fields the guard typed, confirmed or corrected, with the capture read. */
    corrections: CorrectionListSchema,
  })
  .strict()
  .superRefine(oneImageSourceEach(['ticketImage']));
export type WeighbridgeTicketBody = z.input<typeof WeighbridgeTicketBodySchema>;

export const WeighbridgeTicketSchema = z.object({
  id: IdSchema,
  createdAt: TimestampSchema,
  ticketNumber: z.string().nullable(),
  site: z.string().nullable(),
  product: z.string().nullable(),
  vehicleReg: z.string().nullable(),
  trailerRegs: z.string().nullable(),
  tareWeight: z.number().nullable(),
  grossWeight: z.number().nullable(),
  netWeight: z.number().nullable(),
  customer: z.string().nullable(),
  transporter: z.string().nullable(),
  supplier: z.string().nullable(),
  sealNumbers: z.string().nullable(),
  tareOperator: z.string().nullable(),
  grossOperator: z.string().nullable(),
  tareDateTime: z.string().nullable(),
  grossDateTime: z.string().nullable(),
  ticketImage: ImageUrlSchema.nullable(),
  /** False when gross − tare ≠ net (checked on save). */
  weightsConsistent: z.boolean().nullable(),
  /** Issue 15: fields typed or corrected before saving, beside what was read, by whom and when. */
  corrections: z.array(CorrectionSchema),
});
export type WeighbridgeTicket = z.infer<typeof WeighbridgeTicketSchema>;
export const WeighbridgeTicketListSchema = z.array(WeighbridgeTicketSchema);
