import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { tenants } from '@/modules/tenants/tenants.table';

/** Drivers known to the tenant: imported in bulk, added one at a time, or self-registered. */
export const drivers = pgTable(
  'drivers',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    /**
     * The 13-digit SA ID number (checksum-validated), sealed with the tenant's data key (issue 26:
     * `sv1.…`; a row stored before sealing holds it plain until the sealing job has run).
     */
    idNumber: text().notNull(),
    /** Keyed hash of the ID number (platform/sealing.ts blindIndex): one driver per ID number. */
    idNumberHash: text(),
    name: text().notNull(),
    surname: text().notNull(),
    phone: text(),
    licenceNumber: text(),
    licenceValidTo: date({ mode: 'string' }),
    transportCompany: text(),
    /** Object-storage keys (images module), never image bytes in the row. */
    photoKey: text(),
    licenceImageKey: text(),
    /** POPIA: who recorded the driver's consent to keeping their selfie, when, under which notice. */
    photoConsentAt: timestamp({ withTimezone: true }),
    photoConsentBy: uuid(),
    photoConsentNotice: text(),
    /** When the retention period of the selfie ends (BIOMETRIC_RETENTION_DAYS after consent). */
    biometricsPurgeAfter: timestamp({ withTimezone: true }),
    /** The browser liveness check's confidence (0–1) when the selfie was taken. */
    livenessConfidence: real(),
    /** bulk | individual | self */
    source: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('drivers_one_per_id_number_hash').on(t.tenantId, t.idNumberHash),
    index('drivers_tenant_created_idx').on(t.tenantId, t.createdAt),
    check('drivers_source_known', sql`${t.source} in ('bulk', 'individual', 'self')`),
  ],
);

export type DriverRow = typeof drivers.$inferSelect;
export type NewDriverRow = typeof drivers.$inferInsert;
