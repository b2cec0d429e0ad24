import { and, eq, getTableName } from 'drizzle-orm';

import type { DbExecutor } from '@/platform/db';

import type { CitedDocumentIds } from './document-readings';
import { type FieldsOpener, openFields } from './document-sealing';
import {
  driversLicences,
  identityDocuments,
  licenceDiscs,
  passports,
  weighbridgeTickets,
} from './documents.table';

/** A document an entry cites, as saved: its fields and its image key (issue 15: entry detail). */
export type CitedDocument = {
  citedAs: keyof CitedDocumentIds;
  id: string;
  imageKey: string | null;
  fields: Record<string, string | number | null>;
};

const TABLES = {
  vehicleLicenceDiscId: licenceDiscs,
  identityDocumentId: identityDocuments,
  driversLicenceId: driversLicences,
  passportRecordId: passports,
  weighbridgeTicketId: weighbridgeTickets,
} as const;

/** The documents an entry cites that still exist (a document erased since is left out). */
export async function citedDocuments(
  tx: DbExecutor,
  tenantId: string,
  ids: CitedDocumentIds,
  // Issue 26: a personal document's fields are sealed at rest; opened for the detail.
  sealer: FieldsOpener,
): Promise<CitedDocument[]> {
  const found: CitedDocument[] = [];
  for (const citedAs of Object.keys(TABLES) as (keyof CitedDocumentIds)[]) {
    const id = ids[citedAs];
    if (!id) continue;
    const table = TABLES[citedAs];
    const [row] = await tx
      .select({ id: table.id, imageKey: table.imageKey, fields: table.fields })
      .from(table)
      .where(and(eq(table.tenantId, tenantId), eq(table.id, id)))
      .limit(1);
    if (row)
      found.push({
        citedAs,
        ...row,
        fields: await openFields(sealer, tenantId, getTableName(table), row.fields),
      });
  }
  return found;
}
