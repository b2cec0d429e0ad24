import { and, eq, inArray, or, sql } from 'drizzle-orm';

import type { ImagesService } from '@/modules/images';
import type { Tx } from '@/platform/db';
import {
  type DataSubject,
  type ImageRetentionProvider,
  type PersonalDataProvider,
  withImageLinks,
} from '@/platform/personal-data';

import { type EntryLogRow, entryLogs } from './entry-logs.table';

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

const rowsOf = (tx: Tx, subject: DataSubject) =>
  tx
    .select()
    .from(entryLogs)
    .where(
      and(
        eq(entryLogs.tenantId, subject.tenantId),
        subject.passportNumbers.length > 0
          ? or(
              eq(entryLogs.driverIdNumber, subject.idNumber),
              inArray(entryLogs.driverPassportNumber, subject.passportNumbers),
            )
          : eq(entryLogs.driverIdNumber, subject.idNumber),
      ),
    )
    .orderBy(entryLogs.timestamp);

/**
 * Gate entries about a driver (by ID number, or a passport number seen with it). Erasure keeps
 * the entry (time, plate, checks, decision, who decided: the site's record of what happened)
 * and removes the driver's name, numbers, phones and every image.
 */
export function createEntryLogsPersonalData({
  images,
}: {
  images: Pick<ImagesService, 'urlFor'>;
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
        .where(and(eq(entryLogs.tenantId, tenantId), eq(entryLogs.driverIdNumber, idNumber)));
      return {
        passportNumbers: rows.map((row) => row.passport).filter((n): n is string => Boolean(n)),
        documentIds: rows.flatMap((row) => row.documents).filter((id): id is string => Boolean(id)),
        entryIds: rows.map((row) => row.id),
      };
    },

    async exportSubject(tx, subject) {
      const rows = await rowsOf(tx, subject);
      return rows.map((row) => withImageLinks(row, IMAGE_FIELDS, images.urlFor));
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
          driverPhone1: null,
          driverPhone2: null,
          driverPhone3: null,
          driverPassportNumber: null,
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
