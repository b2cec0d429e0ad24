import { jsonb, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';

import type { DocumentRuleCode, RuleSetting } from '@boomgate/contracts/document-rules';

import { tenants } from '@/modules/tenants/tenants.table';

/**
 * Issue 21: an organization's document rule settings (one row per tenant, written on the first
 * change). A rule missing from `rules` has the default setting (off).
 */
export const documentRuleSettings = pgTable('document_rule_settings', {
  tenantId: uuid()
    .primaryKey()
    .references(() => tenants.id),
  rules: jsonb().$type<Partial<Record<DocumentRuleCode, RuleSetting>>>().notNull(),
  updatedAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
  updatedBy: uuid(),
});
