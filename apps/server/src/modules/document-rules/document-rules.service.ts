import {
  DEFAULT_RULE_SETTING,
  DOCUMENT_RULE_CODES,
  type DocumentRules,
  type UpdateDocumentRules,
} from '@boomgate/contracts/document-rules';

import type { AuditService } from '@/modules/audit';
import type { Actor } from '@/modules/sessions';
import type { Clock } from '@/platform/clock';
import type { Database, DbExecutor } from '@/platform/db';

import type { DocumentRulesRepository } from './document-rules.repository';

export type DocumentRulesServiceDeps = {
  database: Pick<Database, 'withTenant'>;
  repository: DocumentRulesRepository;
  audit: Pick<AuditService, 'record'>;
  clock: Clock;
};

export type DocumentRulesService = ReturnType<typeof createDocumentRulesService>;

export function createDocumentRulesService({
  database,
  repository,
  audit,
  clock,
}: DocumentRulesServiceDeps) {
  /** Every rule with its setting (the default for a rule never set). */
  async function rulesOf(tx: DbExecutor, tenantId: string): Promise<DocumentRules['rules']> {
    const stored = await repository.find(tx, tenantId);
    return Object.fromEntries(
      DOCUMENT_RULE_CODES.map((code) => [code, stored[code] ?? DEFAULT_RULE_SETTING]),
    ) as DocumentRules['rules'];
  }

  return {
    /** For the gate's decision, inside its tenant transaction. */
    rulesOf,

    read: (actor: Actor) =>
      database.withTenant(actor.tenantId, async (tx) => ({
        rules: await rulesOf(tx, actor.tenantId),
      })),

    update: (actor: Actor, patch: UpdateDocumentRules, ip?: string) =>
      database.withTenant(actor.tenantId, async (tx) => {
        const before = await rulesOf(tx, actor.tenantId);
        const after = { ...before, ...patch.rules };
        await repository.save(tx, actor.tenantId, after, clock.now(), actor.userId);
        await audit.record(tx, {
          tenantId: actor.tenantId,
          actorUserId: actor.userId,
          action: 'settings.rules.updated',
          targetType: 'tenant',
          targetId: actor.tenantId,
          ip,
          details: { before, after },
        });
        return { rules: after };
      }),
  };
}
