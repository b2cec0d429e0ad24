import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import type { ExitMismatch } from '@boomgate/contracts/visits';

import { entryLogs } from '@/modules/entry-logs/entry-logs.table';
import { gates, sites } from '@/modules/sites/sites.table';
import { tenants } from '@/modules/tenants/tenants.table';

export const visitKind = pgEnum('visit_kind', ['vehicle', 'person']);
export const exitSource = pgEnum('visit_exit_source', ['guard', 'anpr', 'webhook']);

/**
 * A stay on site (issue 16): opened by a granted entry (a vehicle, keyed to its entry log) or by
 * a person signed in on foot, closed once by the exit. The entry log stays append-only: the exit
 * is recorded here, once (`exited_at` set from null; the API may not change it again).
 * Times are capture times (when the camera saw it), the turnaround their difference.
 */
export const visits = pgTable(
  'visits',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    kind: visitKind().notNull(),
    siteId: uuid().notNull(),
    gateId: uuid(),
    /** The vehicle's entry; null for a person on foot. */
    entryLogId: uuid(),
    plateNumber: text(),
    /** The driver, or the person on foot. */
    personName: text(),
    /**
     * ID or passport number of a person on foot (personal data, erased on request). Issue 26:
     * sealed (`sv1.…`); equality by personIdNumberHash (identityNumberDomain).
     */
    personIdNumber: text(),
    personIdNumberHash: text(),
    company: text(),
    enteredAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    enteredBy: uuid(),
    enteredByName: text(),
    /** The plate or person was still on site when this visit began (an exit never recorded). */
    reEntry: boolean().notNull().default(false),
    exitedAt: timestamp({ withTimezone: true, precision: 3 }),
    exitRecordedAt: timestamp({ withTimezone: true, precision: 3 }),
    exitGateId: uuid(),
    exitSource: exitSource(),
    exitedBy: uuid(),
    exitedByName: text(),
    exitTicketNumber: text(),
    exitSealNumbers: text().array(),
    /**
     * Issue 18: the Idempotency-Key the exit was recorded with (an exit queued offline and
     * replayed): the same key again answers with this exit instead of a 409.
     */
    exitIdempotencyKey: text(),
    /**
     * What the exit's weighbridge ticket and seals disagree on with the entry's (seal changed,
     * another ticket, another vehicle on the ticket): computed by the server when the exit is
     * recorded, shown to the guard as warnings. Empty when nothing was compared or all agreed.
     */
    exitMismatches: jsonb().$type<ExitMismatch[]>(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    foreignKey({ columns: [t.tenantId, t.siteId], foreignColumns: [sites.tenantId, sites.id] }),
    foreignKey({ columns: [t.tenantId, t.gateId], foreignColumns: [gates.tenantId, gates.id] }),
    foreignKey({
      columns: [t.tenantId, t.exitGateId],
      foreignColumns: [gates.tenantId, gates.id],
    }),
    foreignKey({
      columns: [t.tenantId, t.entryLogId],
      foreignColumns: [entryLogs.tenantId, entryLogs.id],
    }),
    uniqueIndex('visits_one_per_entry')
      .on(t.tenantId, t.entryLogId)
      .where(sql`entry_log_id is not null`),
    // On Site: who is inside a site now, newest first, read backwards like the entry lists.
    index('visits_open_by_site_idx')
      .on(t.tenantId, t.siteId, t.enteredAt, t.id)
      .where(sql`exited_at is null`),
    // The tenant-wide On Site list, and re-entry: is this plate still inside?
    index('visits_open_idx')
      .on(t.tenantId, t.enteredAt, t.id)
      .where(sql`exited_at is null`),
    // Issue 23: turnaround medians read the closed visits of a site's range, company and both
    // times from the index alone (an index-only scan, no visit row fetched).
    index('visits_closed_by_site_idx')
      .on(t.tenantId, t.siteId, t.enteredAt, t.exitedAt, t.company)
      .where(sql`exited_at is not null`),
    index('visits_open_plate_idx')
      .on(t.tenantId, t.plateNumber)
      .where(sql`exited_at is null and plate_number is not null`),
    // Issue 26: a person by the keyed hash of their number (re-entry, data-subject requests).
    index('visits_tenant_person_hash_idx')
      .on(t.tenantId, t.personIdNumberHash)
      .where(sql`person_id_number_hash is not null`),
  ],
);

/**
 * How many are inside each site now, kept by statement-level triggers on visits in the writer's
 * transaction (as entry_log_daily_counts): the dashboard's On Site card reads a row per site
 * instead of counting 100,000 open visits on every request.
 */
export const visitOpenCounts = pgTable(
  'visit_open_counts',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    siteId: uuid().notNull(),
    open: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.siteId] })],
);

export type VisitRow = typeof visits.$inferSelect;
