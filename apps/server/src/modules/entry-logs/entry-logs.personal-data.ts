import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';

import type { ImagesService } from '@/modules/images';
import type { Tx } from '@/platform/db';
import {
  type DataSubject,
  type ImageRetentionProvider,
  type PersonalDataProvider,
  withImageLinks,
} from '@/platform/personal-data';

import { type EntryLogRow, entryLogs } from './entry-logs.table';
import type { EntrySealing } from './entry-sealing';

const IMAGE_FIELDS = [
  'plateImageKey',
  'vehicleDiskImageKey',
  'driverFaceImageKey',
  'driverLicenseImageKey',
  'passportImageKey',
  'permitImageKeys',
] as const satisfies readonly (keyof EntryLogRow)[];

const imageKeysOf = (row: EntryLogRow) =>
  [
    row.plateImageKey,
    row.vehicleDiskImageKey,
    row.driverFaceImageKey,
    row.driverLicenseImageKey,
    row.passportImageKey,
    ...row.permitImageKeys,
  ].filter((key): key is string => Boolean(key));

// Only these columns may change, and only to null/empty (the database's erase-only trigger).
const NO_DOCUMENT_IMAGES = {
  plateImageKey: null,
  vehicleDiskImageKey: null,
  driverLicenseImageKey: null,
  passportImageKey: null,
  permitImageKeys: [],
};
const NO_IMAGES = { ...NO_DOCUMENT_IMAGES, driverFaceImageKey: null };

/**
 * The retention lookup's record types (migration 0027): the face photo is biometric and ends
 * after the tenant's biometric period, the entry's other pictures after its document period.
 */
const RETENTION = {
  entry_log: {
    clear: NO_DOCUMENT_IMAGES,
    keysOf: (row: EntryLogRow) => imageKeysOf({ ...row, driverFaceImageKey: null }),
  },
  entry_log_face: {
    clear: { driverFaceImageKey: null },
    keysOf: (row: EntryLogRow) => (row.driverFaceImageKey ? [row.driverFaceImageKey] : []),
  },
} as const;
const isRetentionType = (type: string): type is keyof typeof RETENTION => type in RETENTION;

/**
 * Issue 26: the subject's entries by the keyed hashes of their numbers; an entry stored before
 * sealing (no hash yet) by its plain number, until keys.seal-stored-data has sealed it.
 */
const entriesAboutSubject = (subject: DataSubject) => {
  const { idNumber, passportNumbers } = subject.numberHashes;
  return and(
    eq(entryLogs.tenantId, subject.tenantId),
    or(
      eq(entryLogs.driverIdNumberHash, idNumber),
      passportNumbers.length > 0
        ? inArray(entryLogs.driverPassportNumberHash, passportNumbers)
        : undefined,
      and(isNull(entryLogs.driverIdNumberHash), eq(entryLogs.driverIdNumber, subject.idNumber)),
      subject.passportNumbers.length > 0
        ? and(
            isNull(entryLogs.driverPassportNumberHash),
            inArray(entryLogs.driverPassportNumber, subject.passportNumbers),
          )
        : undefined,
    ),
  );
};

const rowsOf = (tx: Tx, subject: DataSubject) =>
  tx.select().from(entryLogs).where(entriesAboutSubject(subject)).orderBy(entryLogs.timestamp);

/**
 * Gate entries about a driver (by ID number, or a passport number seen with it). Erasure keeps
 * the entry (time, plate, checks, decision, who decided: the site's record of what happened)
 * and removes the driver's name, numbers, phones and every image.
 */
export function createEntryLogsPersonalData({
  images,
  sealing,
}: {
  images: Pick<ImagesService, 'urlFor'>;
  sealing: Pick<EntrySealing, 'openAll' | 'idNumberHash'>;
}): PersonalDataProvider & ImageRetentionProvider {
  return {
    section: 'entryLogs',

    async link(tx, tenantId, idNumber) {
      const rows = await tx
        .select({
          id: entryLogs.id,
          passport: entryLogs.driverPassportNumber,
          documents: sql<
            (string | null)[]
          >`array[${entryLogs.identityDocumentId}, ${entryLogs.driversLicenceId}, ${entryLogs.passportRecordId}]`,
        })
        .from(entryLogs)
        .where(
          and(
            eq(entryLogs.tenantId, tenantId),
            or(
              eq(entryLogs.driverIdNumberHash, await sealing.idNumberHash(tenantId, idNumber)),
              and(isNull(entryLogs.driverIdNumberHash), eq(entryLogs.driverIdNumber, idNumber)),
            ),
          ),
        );
      const opened = await sealing.openAll(
        tenantId,
        rows.map((row) => ({ ...row, driverPassportNumber: row.passport })),
      );
      return {
        passportNumbers: opened
          .map((row) => row.driverPassportNumber)
          .filter((n): n is string => Boolean(n)),
        documentIds: rows.flatMap((row) => row.documents).filter((id): id is string => Boolean(id)),
        entryIds: rows.map((row) => row.id),
      };
    },

    async exportSubject(tx, subject) {
      const rows = await sealing.openAll(subject.tenantId, await rowsOf(tx, subject));
      // The keyed hashes are lookup keys, not data about the subject.
      return rows.map(({ driverIdNumberHash: _id, driverPassportNumberHash: _passport, ...row }) =>
        withImageLinks(row, IMAGE_FIELDS, images.urlFor),
      );
    },

    async eraseBiometrics(tx, subject) {
      const rows = (await rowsOf(tx, subject)).filter((row) => row.driverFaceImageKey !== null);
      if (rows.length === 0) return { rows: 0, imageKeys: [] };
      await tx
        .update(entryLogs)
        .set({ driverFaceImageKey: null })
        .where(
          and(
            eq(entryLogs.tenantId, subject.tenantId),
            inArray(
              entryLogs.id,
              rows.map((row) => row.id),
            ),
          ),
        );
      return {
        rows: rows.length,
        imageKeys: rows.map((row) => row.driverFaceImageKey).filter((key): key is string => !!key),
      };
    },

    async eraseSubject(tx, subject) {
      const rows = await rowsOf(tx, subject);
      const ids = rows.map((row) => row.id);
      if (ids.length === 0) return { rows: 0, imageKeys: [] };
      const changed = await tx
        .update(entryLogs)
        .set({
          driverName: null,
          driverSurname: null,
          driverIdNumber: null,
          driverIdNumberHash: null,
          driverPhone1: null,
          driverPhone2: null,
          driverPhone3: null,
          driverPassportNumber: null,
          driverPassportNumberHash: null,
          ...NO_IMAGES,
        })
        .where(and(eq(entryLogs.tenantId, subject.tenantId), inArray(entryLogs.id, ids)))
        .returning({ id: entryLogs.id });
      return { rows: changed.length, imageKeys: rows.flatMap(imageKeysOf) };
    },

    recordTypes: Object.keys(RETENTION),
    biometricTypes: { entry_log_face: 'entry_log' },

    async expireImages(tx, tenantId, recordType, recordId) {
      if (!isRetentionType(recordType)) return [];
      const { clear, keysOf } = RETENTION[recordType];
      const where = and(eq(entryLogs.tenantId, tenantId), eq(entryLogs.id, recordId));
      const [row] = await tx.select().from(entryLogs).where(where).for('update');
      if (!row) return [];
      const keys = keysOf(row);
      if (keys.length > 0) await tx.update(entryLogs).set(clear).where(where);
      return keys;
    },
  };
}
