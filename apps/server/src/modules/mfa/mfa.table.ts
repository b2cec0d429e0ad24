import {
  bigint,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { users } from '@/modules/users/users.table';

/**
 * A user's TOTP authenticator (RFC 6238). The secret is sealed with the platform secret box (the
 * tenant id bound in). Unconfirmed (`confirmedAt` null) between setup and the first right code.
 */
export const mfaTotp = pgTable(
  'mfa_totp',
  {
    tenantId: uuid().notNull(),
    userId: uuid().notNull(),
    secretSealed: text().notNull(),
    confirmedAt: timestamp({ withTimezone: true }),
    /** The last 30-second time step a code was accepted for: a code is never accepted twice. */
    lastUsedStep: bigint({ mode: 'number' }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId] }),
    foreignKey({
      columns: [t.tenantId, t.userId],
      foreignColumns: [users.tenantId, users.id],
    }).onDelete('cascade'),
  ],
);

/** One-time recovery codes, stored as keyed hashes (HMAC-SHA256); used ones keep `usedAt`. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    tenantId: uuid().notNull(),
    userId: uuid().notNull(),
    codeHash: text().notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId, t.codeHash] }),
    foreignKey({
      columns: [t.tenantId, t.userId],
      foreignColumns: [users.tenantId, users.id],
    }).onDelete('cascade'),
  ],
);

/** WebAuthn credentials (passkeys): the public key and signature counter the server checks. */
export const mfaPasskeys = pgTable(
  'mfa_passkeys',
  {
    tenantId: uuid().notNull(),
    id: uuid().notNull(),
    userId: uuid().notNull(),
    /** base64url, as WebAuthn names it. */
    credentialId: text().notNull(),
    /** COSE public key, base64url. */
    publicKey: text().notNull(),
    counter: bigint({ mode: 'number' }).notNull().default(0),
    transports: text().array().notNull().default([]),
    name: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    lastUsedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('mfa_passkeys_credential_unique').on(t.tenantId, t.credentialId),
    index('mfa_passkeys_tenant_user_idx').on(t.tenantId, t.userId),
    foreignKey({
      columns: [t.tenantId, t.userId],
      foreignColumns: [users.tenantId, users.id],
    }).onDelete('cascade'),
  ],
);

export type MfaTotpRow = typeof mfaTotp.$inferSelect;
export type MfaPasskeyRow = typeof mfaPasskeys.$inferSelect;
