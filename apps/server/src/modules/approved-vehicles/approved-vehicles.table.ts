import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import type { Trailer } from '@boomgate/contracts/approved-vehicles';

import { drivers } from '@/modules/drivers/drivers.table';
import { tenants } from '@/modules/tenants/tenants.table';

/** Vehicles pre-approved (contracted) for entry, with the driver expected to bring them. */
export const approvedVehicles = pgTable(
  'approved_vehicles',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    plateNumber: text().notNull(),
    driverName: text().notNull(),
    driverLicense: text(),
    company: text(),
    /**
     * The driver record (drivers module) this vehicle was onboarded for; null for a vehicle
     * pre-registered by name only. Erasing the driver clears it (ON DELETE SET NULL (driver_id)).
     */
    driverId: uuid(),
    driverPhotoKey: text(),
    /** POPIA: who recorded the driver's consent to face verification, when, under which notice. */
    photoConsentAt: timestamp({ withTimezone: true }),
    photoConsentBy: uuid(),
    photoConsentNotice: text(),
    /** The driver photo's face descriptor, AES-256-GCM sealed (biometric data); null when none. */
    driverFaceDescriptor: text(),
    faceModelVersion: text(),
    /** When the retention period ends: the photo and descriptor are then purged. */
    biometricsPurgeAfter: timestamp({ withTimezone: true }),
    approvedUntil: date({ mode: 'string' }),
    /** Issue 21: a rig's trailers (at most 2), each with its own plate and licence disc. */
    trailers: jsonb()
      .$type<Trailer[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    isActive: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid(),
    /**
     * Separation of duties: a security guard's proposal waiting for back_office or an admin.
     * 'register': not approved until confirmed (is_active stays false, so the dashboard's counts
     * leave it out); 'delete': the vehicle stays as it is until confirmed. Null: nothing pending.
     */
    proposal: text({ enum: ['register', 'delete'] }),
    proposedBy: uuid(),
    proposedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check('approved_vehicles_proposal_kind', sql`${t.proposal} in ('register', 'delete')`),
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('approved_vehicles_one_per_plate').on(t.tenantId, t.plateNumber),
    // tenant_id is part of the key, so a vehicle can only name a driver of its own tenant.
    // NOT WHAT THE DATABASE HAS: the database says ON DELETE SET NULL ("driver_id"), hand-edited
    // into migration 0026 because Drizzle cannot express a column list for SET NULL. A plain
    // SET NULL, as declared here, would also null tenant_id (NOT NULL), so erasing a linked
    // driver would fail. If drizzle-kit ever proposes to recreate this constraint, keep the
    // column list in the SQL. driver-link.int.test.ts asserts the catalog
    // (pg_constraint.confdelsetcols = {driver_id}).
    foreignKey({
      columns: [t.tenantId, t.driverId],
      foreignColumns: [drivers.tenantId, drivers.id],
    }).onDelete('set null'),
    index('approved_vehicles_tenant_driver_idx').on(t.tenantId, t.driverId),
  ],
);

/**
 * The dashboard's "registered vehicles": active approvals counted per tenant and last approved
 * day ('infinity' for no end date) by statement-level triggers on approved_vehicles (migration
 * 0019). Today's count is the sum over days not yet past: a few rows, not every approval.
 */
export const approvedVehicleExpiryCounts = pgTable(
  'approved_vehicle_expiry_counts',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    approvedUntil: date({ mode: 'string' }).notNull(),
    active: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.approvedUntil] })],
);

export type ApprovedVehicleRow = typeof approvedVehicles.$inferSelect;
export type NewApprovedVehicleRow = typeof approvedVehicles.$inferInsert;
