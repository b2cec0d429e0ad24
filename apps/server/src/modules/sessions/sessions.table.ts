import { sql } from 'drizzle-orm';
import {
  check,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

import { users } from '@/modules/users/users.table';

/** Server-side sessions. The cookie holds a random token; only its HMAC is stored here. */
export const sessions = pgTable(
  'sessions',
  {
    tenantId: uuid().notNull(),
    tokenHash: text().notNull(),
    userId: uuid().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    ip: text(),
    userAgent: text(),
    /**
     * SEC-26: null for a complete sign-in; 'verify' while the second factor is owed (only the
     * second-step routes answer); 'enrol' while a required second factor is not set up yet (only
     * enrolment, like a forced password change).
     */
    mfaPending: text(),
    /** The WebAuthn challenge last issued to this session (passkey registration or sign-in). */
    webauthnChallenge: text(),
    webauthnChallengeExpiresAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.tokenHash] }),
    foreignKey({
      columns: [t.tenantId, t.userId],
      foreignColumns: [users.tenantId, users.id],
    }).onDelete('cascade'),
    index('sessions_tenant_user_idx').on(t.tenantId, t.userId),
    // Resolving a cookie happens before the tenant is known (auth_resolve_session).
    index('sessions_token_hash_idx').on(t.tokenHash),
    check('sessions_mfa_pending_values', sql`${t.mfaPending} in ('verify', 'enrol')`),
  ],
);

export type SessionRow = typeof sessions.$inferSelect;
