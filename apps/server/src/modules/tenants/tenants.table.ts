import { boolean, integer, pgTable, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * An organization, with its settings. Its own row is visible only inside its own tenant context
 * (RLS on `id`). A null retention period means "the server default" (BIOMETRIC_RETENTION_DAYS,
 * DOCUMENT_RETENTION_DAYS), so an operator can change the default without touching every tenant.
 */
export const tenants = pgTable('tenants', {
  id: uuid().primaryKey(),
  name: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  /** Days a driver photo and face descriptor are kept after enrolment (POPIA minimality). */
  biometricRetentionDays: integer(),
  /** Days identity-document, licence, passport and ticket images are kept after capture. */
  documentRetentionDays: integer(),
  /** Days a passed safety induction stays valid. */
  inductionValidityDays: integer().notNull().default(365),
  /** When true, a live face whose anti-spoofing score is below the threshold is refused at the gate. */
  antispoofGating: boolean().notNull().default(false),
  /** 0–1; only used when antispoofGating is on. */
  antispoofThreshold: real().notNull().default(0.5),
});

export type TenantRow = typeof tenants.$inferSelect;
