import {
  boolean,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

import type { BarrierDeviceKind } from '@boomgate/contracts/barriers';

import { gates } from '@/modules/sites/sites.table';
import { tenants } from '@/modules/tenants/tenants.table';

/**
 * A gate's site agent: the hash of the token it connects with (the token is shown once) and when
 * it was last heard from. One agent per gate; a new token replaces the old one.
 */
export const gateAgents = pgTable(
  'gate_agents',
  {
    tenantId: uuid()
      .notNull()
      .references(() => tenants.id),
    gateId: uuid().notNull(),
    tokenHash: text().notNull(),
    createdAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    createdBy: uuid(),
    /** The device the agent drives, as it reports in its heartbeats. */
    device: text().$type<BarrierDeviceKind>(),
    lastSeenAt: timestamp({ withTimezone: true, precision: 3 }),
    /**
     * Whether an API process holds the agent's connection now (written on connect and on drop).
     * A process that dies cannot clear it: the offline scan goes by last_seen_at as well.
     */
    connected: boolean().notNull().default(false),
    /**
     * The connection that last took the agent over (issue 27): a connection's drop clears
     * `connected` only while this still names it, so an older socket's late close (in another
     * process, or a write that lost the race) leaves the newer connection's presence alone.
     */
    connectionId: uuid(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.gateId] }),
    foreignKey({ columns: [t.tenantId, t.gateId], foreignColumns: [gates.tenantId, gates.id] }),
    // Not unique: a unique index without tenant_id is refused (tenancy test); 256-bit tokens do not collide.
    index('gate_agents_token_hash_idx').on(t.tokenHash),
  ],
);

export type GateAgentRow = typeof gateAgents.$inferSelect;
