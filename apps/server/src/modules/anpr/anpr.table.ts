import { foreignKey, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

import { gates, sites } from '@/modules/sites/sites.table';
import { tenants } from '@/modules/tenants/tenants.table';

/** Number-plate cameras that push reads. Only the SHA-256 of each camera's URL token is kept. */
export const anprCameras = pgTable(
  'anpr_cameras',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    id: uuid().notNull(),
    name: text().notNull(),
    tokenHash: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    createdBy: uuid(),
    lastSeenAt: timestamp({ withTimezone: true }),
    /**
     * Issue 16: the site the camera watches; its reads are that site's truck-list entries. The
     * database fills the tenant's default site when a writer names none (cameras made before).
     */
    siteId: uuid(),
    /** Issue 16: the gate it is mounted at, when known (a gate of the camera's site). */
    gateId: uuid(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // Looked up before the tenant is known (anpr_find_camera): a 256-bit token's hash is unique.
    index('anpr_cameras_token_hash_idx').on(t.tokenHash),
    index('anpr_cameras_site_idx').on(t.tenantId, t.siteId),
    index('anpr_cameras_gate_idx').on(t.tenantId, t.gateId),
    foreignKey({ columns: [t.tenantId, t.siteId], foreignColumns: [sites.tenantId, sites.id] }),
    foreignKey({ columns: [t.tenantId, t.gateId], foreignColumns: [gates.tenantId, gates.id] }),
  ],
);

export type AnprCameraRow = typeof anprCameras.$inferSelect;
