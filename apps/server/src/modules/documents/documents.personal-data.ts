import { and, eq, inArray, isNull, or } from 'drizzle-orm';

import type { ImagesService } from '@/modules/images';
import type { Tx } from '@/platform/db';
import {
  type DataSubject,
  type ImageRetentionProvider,
  type PersonalDataProvider,
  type SubjectRecord,
  withImageLinks,
} from '@/platform/personal-data';

import type { DocumentSealing } from './document-sealing';
import {
  driversLicences,
  identityDocuments,
  licenceDiscs,
  passports,
  weighbridgeTickets,
} from './documents.table';

// The `record_type` names of retention_due_document_images (migration 0016).
const TABLES = {
  licence_disc: licenceDiscs,
  identity_document: identityDocuments,
  drivers_licence: driversLicences,
  passport: passports,
  weighbridge_ticket: weighbridgeTickets,
} as const;

/**
 * Identity documents, driving licences and passports of a driver: matched by ID number, by the
 * subject's licence and passport numbers, or because the subject's gate entries point at them.
 * Erasure keeps the row (entries refer to it) and removes the number, the fields read from the
 * document and the image. Licence discs and weighbridge tickets describe vehicles and loads, not
 * people: they take part in image retention only.
 */
export function createDocumentsPersonalData({
  images,
  sealing,
}: {
  images: Pick<ImagesService, 'urlFor'>;
  sealing: DocumentSealing;
}): PersonalDataProvider & ImageRetentionProvider {
  /**
   * Issue 26: by the keyed hashes of the subject's numbers; a row stored before sealing (no hash
   * yet) by its plain number, until keys.seal-stored-data has sealed it.
   */
  async function rowsOf(tx: Tx, subject: DataSubject) {
    const { tenantId, idNumber, licenceNumbers, passportNumbers, documentIds } = subject;
    const hashes = subject.numberHashes;
    const byId = (table: typeof identityDocuments | typeof driversLicences | typeof passports) =>
      documentIds.length > 0 ? [inArray(table.id, documentIds)] : [];
    // One after the other: a transaction's connection runs one query at a time.
    const identity = await tx
      .select()
      .from(identityDocuments)
      .where(
        and(
          eq(identityDocuments.tenantId, tenantId),
          or(
            eq(identityDocuments.identityNumberHash, hashes.idNumber),
            and(
              isNull(identityDocuments.identityNumberHash),
              eq(identityDocuments.identityNumber, idNumber),
            ),
            ...byId(identityDocuments),
          ),
        ),
      );
    const licences = await tx
      .select()
      .from(driversLicences)
      .where(
        and(
          eq(driversLicences.tenantId, tenantId),
          or(
            eq(driversLicences.idNumberHash, hashes.idNumber),
            and(isNull(driversLicences.idNumberHash), eq(driversLicences.idNumber, idNumber)),
            ...(licenceNumbers.length > 0
              ? [inArray(driversLicences.licenceNumber, licenceNumbers)]
              : []),
            ...byId(driversLicences),
          ),
        ),
      );
    const passportRows =
      passportNumbers.length > 0 || documentIds.length > 0
        ? await tx
            .select()
            .from(passports)
            .where(
              and(
                eq(passports.tenantId, tenantId),
                or(
                  ...(hashes.passportNumbers.length > 0
                    ? [inArray(passports.passportNumberHash, hashes.passportNumbers)]
                    : []),
                  ...(passportNumbers.length > 0
                    ? [
                        and(
                          isNull(passports.passportNumberHash),
                          inArray(passports.passportNumber, passportNumbers),
                        ),
                      ]
                    : []),
                  ...byId(passports),
                ),
              ),
            )
        : [];
    return { identity, licences, passports: passportRows };
  }

  /** The row as the subject is shown it: number and fields opened, no keyed hash. */
  async function opened(
    tenantId: string,
    table: 'identity_documents' | 'drivers_licences' | 'passports',
    row: { id: string; fields: string | null } & Record<string, unknown>,
    number: string,
  ): Promise<{ id: string } & Record<string, unknown>> {
    const record: { id: string } & Record<string, unknown> = { ...row };
    delete record[`${number}Hash`];
    const column = `${table}.${number.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`;
    record[number] = await sealing.open(tenantId, column, row[number] as string | null);
    record.fields = await sealing.openFields(tenantId, table, row.fields);
    return record;
  }

  return {
    section: 'documents',

    async link(tx, tenantId, idNumber) {
      const hash = await sealing.idNumberHash(tenantId, idNumber);
      const rows = await tx
        .select({ licenceNumber: driversLicences.licenceNumber })
        .from(driversLicences)
        .where(
          and(
            eq(driversLicences.tenantId, tenantId),
            or(
              eq(driversLicences.idNumberHash, hash),
              and(isNull(driversLicences.idNumberHash), eq(driversLicences.idNumber, idNumber)),
            ),
          ),
        );
      return {
        licenceNumbers: rows.map((row) => row.licenceNumber).filter((n): n is string => !!n),
      };
    },

    async exportSubject(tx, subject) {
      const rows = await rowsOf(tx, subject);
      const records: SubjectRecord[] = [];
      for (const [type, table, number, list] of [
        ['identity_document', 'identity_documents', 'identityNumber', rows.identity],
        ['drivers_licence', 'drivers_licences', 'idNumber', rows.licences],
        ['passport', 'passports', 'passportNumber', rows.passports],
      ] as const) {
        for (const row of list) {
          const open = await opened(subject.tenantId, table, row, number);
          records.push({ type, ...withImageLinks(open, ['imageKey'], images.urlFor) });
        }
      }
      return records;
    },

    async eraseSubject(tx, subject) {
      const rows = await rowsOf(tx, subject);
      const erase = async (
        table: typeof identityDocuments | typeof driversLicences | typeof passports,
        ids: string[],
        numbers: Record<string, null>,
      ) => {
        if (ids.length === 0) return 0;
        const changed = await tx
          .update(table)
          .set({ imageKey: null, fields: null, ...numbers })
          .where(and(eq(table.tenantId, subject.tenantId), inArray(table.id, ids)))
          .returning({ id: table.id });
        return changed.length;
      };
      const ids = (list: { id: string }[]) => list.map((row) => row.id);
      const changed =
        (await erase(identityDocuments, ids(rows.identity), {
          identityNumber: null,
          identityNumberHash: null,
        })) +
        (await erase(driversLicences, ids(rows.licences), {
          idNumber: null,
          idNumberHash: null,
          licenceNumber: null,
        })) +
        (await erase(passports, ids(rows.passports), {
          passportNumber: null,
          passportNumberHash: null,
        }));
      const imageKeys = [...rows.identity, ...rows.licences, ...rows.passports]
        .map((row) => row.imageKey)
        .filter((key): key is string => Boolean(key));
      return { rows: changed, imageKeys };
    },

    recordTypes: Object.keys(TABLES),

    async expireImages(tx, tenantId, recordType, recordId) {
      const table = TABLES[recordType as keyof typeof TABLES];
      if (!table) return [];
      const where = and(eq(table.tenantId, tenantId), eq(table.id, recordId));
      const [row] = await tx.select({ imageKey: table.imageKey }).from(table).where(where);
      if (!row?.imageKey) return [];
      await tx.update(table).set({ imageKey: null }).where(where);
      return [row.imageKey];
    },
  };
}
