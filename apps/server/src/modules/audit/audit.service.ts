import type { Clock } from '@/platform/clock';
import type { DbExecutor } from '@/platform/db';

import type { AuditActionRange, AuditEventInput } from './audit.repository';
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
    /** Issue 23's exports of one kind of event (watchlist hits), a batch at a time. */
    countAction: (tx: DbExecutor, tenantId: string, range: AuditActionRange) =>
      repository.countAction(tx, tenantId, range),
    listActionBatch: (
      tx: DbExecutor,
      tenantId: string,
      range: AuditActionRange,
      limit: number,
      after?: { occurredAt: Date; id: string },
    ) => repository.listActionBatch(tx, tenantId, range, limit, after),
    listAbout: (tx: DbExecutor, tenantId: string, targetIds: readonly string[]) =>
      repository.listAbout(tx, tenantId, targetIds),
  };
}
