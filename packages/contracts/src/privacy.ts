import { z } from 'zod';

import { TimestampSchema } from './primitives';
import { SaIdNumberSchema } from './sa-id-number';

/**
 * POPIA data-subject requests (tenant_admin): everything the organization holds about a driver,
 * and its erasure. The driver is named by their South African ID number, always in the body:
 * a number in a URL ends up in proxy and browser histories.
 */
export const DataSubjectRequestSchema = z.object({ idNumber: SaIdNumberSchema }).strict();
export type DataSubjectRequest = z.infer<typeof DataSubjectRequestSchema>;

/** A record as held: its fields, with images as links to the (audited) image route. */
const HeldRecordSchema = z.looseObject({ id: z.string() });

/** POST /api/data-subjects/export {idNumber} */
export const DataSubjectExportSchema = z.object({
  idNumber: z.string(),
  exportedAt: TimestampSchema,
  /** Numbers found on the subject's records that were used to find more of them. */
  linkedIdentifiers: z.object({
    licenceNumbers: z.array(z.string()),
    passportNumbers: z.array(z.string()),
  }),
  /** One list per kind of record (drivers, entryLogs, documents, approvedVehicles, …). */
  records: z.record(z.string(), z.array(HeldRecordSchema)),
  /** Who did what with those records (sign-in trail excluded): the access audit trail (s23). */
  auditTrail: z.array(
    z.object({
      id: z.string(),
      occurredAt: TimestampSchema,
      action: z.string(),
      actorUserId: z.string().nullable(),
      targetType: z.string().nullable(),
      targetId: z.string().nullable(),
    }),
  ),
  /** How to read the export and what is not in it. */
  notes: z.array(z.string()),
});
export type DataSubjectExport = z.infer<typeof DataSubjectExportSchema>;

/** POST /api/data-subjects/erase and /erase-biometrics {idNumber} */
export const DataSubjectErasureSchema = z.object({
  /** Rows erased, anonymised or deleted, per kind of record; all zero when nothing was left. */
  erased: z.record(z.string(), z.number().int().min(0)),
  imagesDeleted: z.number().int().min(0),
  /** What is kept and why (the audit trail, de-identified gate records). */
  retained: z.array(z.string()),
});
export type DataSubjectErasure = z.infer<typeof DataSubjectErasureSchema>;

/**
 * A data-subject request by e-mail address (tenant_admin): staff and others who receive the
 * organization's e-mails (scheduled report recipients) are named by their address, not an ID
 * number. Sent in the body, as the ID number is.
 */
export const EmailSubjectRequestSchema = z
  .object({ email: z.email('Enter a valid e-mail address').max(254) })
  .strict();
export type EmailSubjectRequest = z.infer<typeof EmailSubjectRequestSchema>;

/** POST /api/data-subjects/email/export {email} */
export const EmailSubjectExportSchema = z.object({
  /** The address as matched (lower case). */
  email: z.string(),
  exportedAt: TimestampSchema,
  /** One list per kind of record naming the address (reportSchedules, …). */
  records: z.record(z.string(), z.array(HeldRecordSchema)),
  notes: z.array(z.string()),
});
export type EmailSubjectExport = z.infer<typeof EmailSubjectExportSchema>;
