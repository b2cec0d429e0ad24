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
const documentColumns = () => ({
  tenantId: uuid()
    .notNull()
    .references(() => tenants.id),
  id: uuid().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  createdBy: uuid(),
  imageKey: text(),
  fields: jsonb().$type<Record<string, string | number | null>>().notNull(),
});

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
  { ...documentColumns(), identityNumber: text() },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('identity_documents_images_held_idx')
      .on(t.tenantId, t.createdAt)
      .where(sql`image_key is not null`),
    index('identity_documents_tenant_number_idx').on(t.tenantId, t.identityNumber),
  ],
);

export const driversLicences = pgTable(
  'drivers_licences',
  { ...documentColumns(), licenceNumber: text(), idNumber: text() },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('drivers_licences_images_held_idx')
      .on(t.tenantId, t.createdAt)
      .where(sql`image_key is not null`),
    index('drivers_licences_tenant_id_number_idx').on(t.tenantId, t.idNumber),
  ],
);

export const passports = pgTable(
  'passports',
  { ...documentColumns(), passportNumber: text() },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('passports_images_held_idx')
      .on(t.tenantId, t.createdAt)
      .where(sql`image_key is not null`),
    index('passports_tenant_number_idx').on(t.tenantId, t.passportNumber),
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
