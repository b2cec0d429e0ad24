import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // Looked up before the tenant is known (anpr_find_camera): a 256-bit token's hash is unique.
    index('anpr_cameras_token_hash_idx').on(t.tokenHash),
  ],
);

export type AnprCameraRow = typeof anprCameras.$inferSelect;
