import { type SQL, sql } from 'drizzle-orm';

import type { Tx } from './db';

/**
 * POPIA data-subject requests (s23 access, s24 deletion) and retention (s14) are served by the
 * modules that hold the data: each contributes a provider, and the privacy module runs them all
 * inside one tenant transaction. A new table with personal data needs its module's provider to
 * cover it (docs/reliability.md, "Personal data").
 */

/** A driver inside one tenant: the SA ID number and the identifiers found linked to it. */
export type DataSubject = {
  tenantId: string;
  idNumber: string;
  /** Driving-licence numbers on the subject's records (approved vehicles name drivers by these). */
  licenceNumbers: string[];
  passportNumbers: string[];
  /** Document rows the subject's gate entries point at (identity, licence, passport). */
  documentIds: string[];
  /** The subject's driver records (approved vehicles onboarded for a driver link to these). */
  driverIds: string[];
  /** The subject's gate entries (face comparisons that backed them name the driver through them). */
  entryIds: string[];
  /**
   * Issue 26: the keyed hashes (blind index) of the subject's ID number and passport numbers:
   * sealed columns are found by these, never by decrypting in SQL.
   */
  numberHashes: { idNumber: string; passportNumbers: string[] };
};

export type SubjectLinks = Partial<
  Pick<DataSubject, 'licenceNumbers' | 'passportNumbers' | 'documentIds' | 'driverIds' | 'entryIds'>
>;

/** Rows as held (personal fields included); images as links to the authorised image route. */
export type SubjectRecord = { id: string } & Record<string, unknown>;

export type PersonalDataProvider = {
  /** The export's section name, e.g. `entryLogs`. */
  section: string;
  /** Other identifiers of the subject found in this module's rows (run before export/erase). */
  link?(tx: Tx, tenantId: string, idNumber: string): Promise<SubjectLinks>;
  exportSubject(tx: Tx, subject: DataSubject): Promise<SubjectRecord[]>;
  /**
   * Erases or anonymises the subject's personal data (what must be kept stays, de-identified).
   * Returns how many rows changed and the storage keys of images to delete. Running it again
   * finds nothing left to erase.
   */
  eraseSubject(tx: Tx, subject: DataSubject): Promise<{ rows: number; imageKeys: string[] }>;
  /**
   * Consent withdrawn (POPIA s11(3)): removes only the subject's biometric data (face photos,
   * face descriptors, the consent they rested on); everything else stays. Idempotent too.
   */
  eraseBiometrics?(tx: Tx, subject: DataSubject): Promise<{ rows: number; imageKeys: string[] }>;
};

/** Retention of images on records: clears one record's image keys, returns them for deletion. */
export type ImageRetentionProvider = {
  /** The `record_type` values of `retention_due_document_images` this provider clears. */
  recordTypes: readonly string[];
  /**
   * Record types whose images are biometric (purged on the biometric period), each with the
   * table its rows are on: their purge is audited as `biometrics.purged` on that table's row.
   */
  biometricTypes?: Readonly<Record<string, string>>;
  expireImages(tx: Tx, tenantId: string, recordType: string, recordId: string): Promise<string[]>;
};

/** A row for the export: image keys become links to the authorised (audited) image route. */
export function withImageLinks<Row extends { id: string }>(
  row: Row,
  imageFields: readonly (keyof Row)[],
  urlFor: (key: string | null) => string | null,
): SubjectRecord {
  const record: SubjectRecord = { ...row };
  for (const field of imageFields) {
    const value = row[field];
    record[field as string] = Array.isArray(value)
      ? value.map((key: string) => urlFor(key))
      : urlFor((value as string | null) ?? null);
  }
  return record;
}

/**
 * An identity or passport number as a gate guard sees it in lists (SEC-15, PRIV-04): every character
 * but the last four (two below 8 characters, none below 5) replaced with `*`, length kept. Enough to tell two drivers apart at the gate, not
 * enough to copy the number.
 */
export function maskIdentifier(value: string | null): string | null {
  if (value === null) return null;
  // Short values show less, so most of a number is always hidden.
  const shown = value.length >= 8 ? 4 : value.length >= 5 ? 2 : 0;
  const visible = shown ? value.slice(-shown) : '';
  return '*'.repeat(value.length - visible.length) + visible;
}

/**
 * Personal data held about an e-mail address rather than a driver (scheduled report
 * recipients): served by POST /api/data-subjects/email/{export,erase}. The address comes lower
 * case; matching is case-insensitive.
 */
export type EmailPersonalDataProvider = {
  /** The export's section name, e.g. `reportSchedules`. */
  section: string;
  exportEmail(tx: Tx, tenantId: string, email: string): Promise<SubjectRecord[]>;
  /** Removes the address; returns how many rows changed (0 when nothing was left). */
  eraseEmail(tx: Tx, tenantId: string, email: string): Promise<number>;
};

/**
 * SQL over `entry_logs e` (modules meet only in SQL): the entry names the subject. Issue 26: by the
 * keyed hashes of the subject's numbers; an entry stored before sealing (no hash yet) by its plain
 * number until keys.seal-stored-data has sealed it. Never decrypts in SQL.
 */
export function entryNamesSubject(subject: DataSubject): SQL {
  const { idNumber, passportNumbers } = subject.numberHashes;
  return sql`(e.driver_id_number_hash = ${idNumber}
    or e.driver_passport_number_hash = any(${sql.param(passportNumbers)}::text[])
    or (e.driver_id_number_hash is null and e.driver_id_number = ${subject.idNumber})
    or (e.driver_passport_number_hash is null
        and e.driver_passport_number = any(${sql.param(subject.passportNumbers)}::text[])))`;
}
