import type { Clock } from '@/platform/clock';
import type { DbExecutor } from '@/platform/db';

import type { AuditEventInput } from './audit.repository';
import { createAuditRepository } from './audit.repository';

export type AuditService = ReturnType<typeof createAuditService>;

/** The append-only trail of who did what (POPIA). Written in the caller's transaction. */
export function createAuditService({ clock }: { clock: Clock }) {
  const repository = createAuditRepository();
  return {
    record: (tx: DbExecutor, event: AuditEventInput) => repository.insert(tx, event, clock.now()),
    find: (tx: DbExecutor, tenantId: string, id: string) => repository.find(tx, tenantId, id),
    hasDetail: (tx: DbExecutor, tenantId: string, key: string, value: string, since: Date) =>
      repository.hasDetail(tx, tenantId, key, value, since),
    listAbout: (tx: DbExecutor, tenantId: string, targetIds: readonly string[]) =>
      repository.listAbout(tx, tenantId, targetIds),
  };
}
