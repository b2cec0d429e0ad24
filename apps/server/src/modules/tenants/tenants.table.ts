import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * An organization, with its settings. Its own row is visible only inside its own tenant context
 * (RLS on `id`). A null retention period means "the server default" (BIOMETRIC_RETENTION_DAYS,
 * DOCUMENT_RETENTION_DAYS), so an operator can change the default without touching every tenant.
 */
export const tenants = pgTable(
  'tenants',
  {
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
    /** Separation of duties: a security_guard's approval or deletion waits for back_office or an admin. */
    separationOfDuties: boolean().notNull().default(true),
    /** The longest approval a security_guard may register, in months from today. */
    maxApprovalValidityMonths: integer().notNull().default(12),
    /** SEC-26: tenant_admin accounts must sign in with a second factor (super_admin always must). */
    requireMfaForAdmins: boolean().notNull().default(false),
    /** SEC-26: every account of the organization must sign in with a second factor. */
    requireMfaForEveryone: boolean().notNull().default(false),
    /** Issue 18: `grant` or `record_only` (what an offline decision may do; contracts/settings.ts). */
    offlineDecisions: text().notNull().default('grant'),
  },
  // The contract's ranges (contracts/settings.ts), held by the database too: a setting written by
  // any other path (a script, a future route) cannot turn a purge or the face gate into nonsense.
  (t) => [
    check(
      'tenants_biometric_retention_days_range',
      sql`${t.biometricRetentionDays} between 1 and 3650`,
    ),
    check(
      'tenants_document_retention_days_range',
      sql`${t.documentRetentionDays} between 1 and 3650`,
    ),
    check(
      'tenants_induction_validity_days_range',
      sql`${t.inductionValidityDays} between 1 and 3650`,
    ),
    check(
      'tenants_max_approval_validity_months_range',
      sql`${t.maxApprovalValidityMonths} between 1 and 120`,
    ),
    check(
      'tenants_offline_decisions_known',
      sql`${t.offlineDecisions} in ('grant', 'record_only')`,
    ),
    check(
      'tenants_antispoof_threshold_range',
      sql`${t.antispoofThreshold} between 0.05::real and 0.99::real`,
    ),
  ],
);

export type TenantRow = typeof tenants.$inferSelect;
