import { eq } from 'drizzle-orm';

import type { DocumentRuleCode, RuleSetting } from '@boomgate/contracts/document-rules';

import type { DbExecutor } from '@/platform/db';

import { documentRuleSettings } from './document-rules.table';

type StoredRules = Partial<Record<DocumentRuleCode, RuleSetting>>;

export type DocumentRulesRepository = ReturnType<typeof createDocumentRulesRepository>;

export function createDocumentRulesRepository() {
  return {
    async find(tx: DbExecutor, tenantId: string): Promise<StoredRules> {
      const rows = await tx
        .select({ rules: documentRuleSettings.rules })
        .from(documentRuleSettings)
        .where(eq(documentRuleSettings.tenantId, tenantId))
        .limit(1);
      return rows[0]?.rules ?? {};
    },

    async save(
      tx: DbExecutor,
      tenantId: string,
      rules: StoredRules,
      at: Date,
      by: string,
    ): Promise<void> {
      await tx
        .insert(documentRuleSettings)
        .values({ tenantId, rules, updatedAt: at, updatedBy: by })
        .onConflictDoUpdate({
          target: documentRuleSettings.tenantId,
          set: { rules, updatedAt: at, updatedBy: by },
        });
    },
  };
}
