import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

import { tenants } from '@/modules/tenants/tenants.table';

// The daily image retention purge scans `<table>_images_held_idx`: rows that still hold an image.
// Every document record: who saved it and when, its image key, the number it is looked up by, and
// all fields read from it (as the reader returned them) in `fields`.
const baseColumns = () => ({
  tenantId: uuid()
    .notNull()
    .references(() => tenants.id),
  id: uuid().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  createdBy: uuid(),
  imageKey: text(),
});
/** Licence discs and weighbridge tickets describe vehicles and loads: their fields stay jsonb. */
const documentColumns = () => ({
  ...baseColumns(),
  fields: jsonb().$type<Record<string, string | number | null>>().notNull(),
});
/**
 * Issue 26: identity documents, driving licences and passports hold a person's numbers (and a
 * passport's MRZ) in their fields, so `fields` is the JSON text of the fields object, sealed
 * (`sv1.…`, documents/document-sealing.ts); null once erased. A row stored before sealing holds
 * the plain JSON text until keys.seal-stored-data seals it.
 */
const personalDocumentColumns = () => ({ ...baseColumns(), fields: text() });

/** Rows still to seal (the sealing job's lookup), as each table's partial index holds them. */
const unsealed = (number: string) =>
  sql.raw(
    `(${number} is not null and (${number}_hash is null or ${number} not like 'sv1.%')) or (fields is not null and fields not like 'sv1.%')`,
  );

export const licenceDiscs = pgTable(
  'licence_discs',
  { ...documentColumns(), licenceNumber: text(), discNumber: text(), vehicleRegisterNo: text() },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('licence_discs_images_held_idx')
      .on(t.tenantId, t.createdAt)
      .where(sql`image_key is not null`),
    index('licence_discs_tenant_licence_idx').on(t.tenantId, t.licenceNumber),
  ],
);

export const identityDocuments = pgTable(
  'identity_documents',
  { ...personalDocumentColumns(), identityNumber: text(), identityNumberHash: text() },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('identity_documents_images_held_idx')
      .on(t.tenantId, t.createdAt)
      .where(sql`image_key is not null`),
    index('identity_documents_tenant_number_hash_idx').on(t.tenantId, t.identityNumberHash),
    index('identity_documents_unsealed_idx').on(t.tenantId).where(unsealed('identity_number')),
  ],
);

export const driversLicences = pgTable(
  'drivers_licences',
  {
    ...personalDocumentColumns(),
    licenceNumber: text(),
    idNumber: text(),
    idNumberHash: text(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('drivers_licences_images_held_idx')
      .on(t.tenantId, t.createdAt)
      .where(sql`image_key is not null`),
    index('drivers_licences_tenant_id_number_hash_idx').on(t.tenantId, t.idNumberHash),
    index('drivers_licences_unsealed_idx').on(t.tenantId).where(unsealed('id_number')),
  ],
);

export const passports = pgTable(
  'passports',
  { ...personalDocumentColumns(), passportNumber: text(), passportNumberHash: text() },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('passports_images_held_idx')
      .on(t.tenantId, t.createdAt)
      .where(sql`image_key is not null`),
    index('passports_tenant_number_hash_idx').on(t.tenantId, t.passportNumberHash),
    index('passports_unsealed_idx').on(t.tenantId).where(unsealed('passport_number')),
  ],
);

export const weighbridgeTickets = pgTable(
  'weighbridge_tickets',
  {
    ...documentColumns(),
    ticketNumber: text(),
    vehicleReg: text(),
    tareWeightKg: integer(),
    grossWeightKg: integer(),
    netWeightKg: integer(),
    weightsConsistent: boolean(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('weighbridge_tickets_images_held_idx')
      .on(t.tenantId, t.createdAt)
      .where(sql`image_key is not null`),
    index('weighbridge_tickets_tenant_created_idx').on(t.tenantId, t.createdAt),
  ],
);

export type WeighbridgeTicketRow = typeof weighbridgeTickets.$inferSelect;
