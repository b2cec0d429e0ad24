import type { SiteFacts } from '@/modules/site-node';
import type { Clock } from '@/platform/clock';
import type { DbExecutor } from '@/platform/db';

import { type AuditSealer, needsSealing, openDetails, sealDetails } from './audit-details';
import type { AuditActionRange, AuditEventInput } from './audit.repository';
import { createAuditRepository } from './audit.repository';
import type { AuditEventRow } from './audit.table';

export type AuditService = ReturnType<typeof createAuditService>;

/**
 * The append-only trail of who did what (POPIA). Written in the caller's transaction. Personal
 * values in `details` (ID and passport numbers, names) are sealed under the tenant's audit key
 * (issue 26) and opened for every reader here, so callers see the details as they wrote them.
 */
export function createAuditService({ clock }: { clock: Clock }) {
  const repository = createAuditRepository();
  // Set by the composition root once the keys module exists (it records through this service).
  let sealer: AuditSealer | undefined;
  // Issue 28: set on a site node, where every event also goes to central through the outbox.
  let siteFacts: SiteFacts | undefined;

  async function stored(event: AuditEventInput): Promise<AuditEventInput> {
    if (!event.details) return event;
    if (!sealer) {
      if (needsSealing(event.details))
        throw new Error('Audit details hold personal data and no audit sealer is configured');
      return event;
    }
    return { ...event, details: await sealDetails(sealer, event.tenantId, event.details) };
  }

  async function opened<T extends Pick<AuditEventRow, 'details'>>(
    tenantId: string,
    row: T,
  ): Promise<T> {
    if (!row.details || !sealer) return row;
    return { ...row, details: await openDetails(sealer, tenantId, row.details) };
  }
  const openedAll = <T extends Pick<AuditEventRow, 'details'>>(tenantId: string, rows: T[]) =>
    Promise.all(rows.map((row) => opened(tenantId, row)));

  return {
    /** Issue 26: the keyring's audit sealer (modules.ts, right after the keys module is made). */
    sealWith(next: AuditSealer) {
      sealer = next;
    },
    /** Issue 28 (site node): each event is also a site fact, in the same transaction. */
    recordFactsWith(next: SiteFacts) {
      siteFacts = next;
    },
    record: async (tx: DbExecutor, event: AuditEventInput) => {
      const occurredAt = clock.now();
      const id = await repository.insert(tx, await stored(event), occurredAt);
      await siteFacts?.record(tx, {
        tenantId: event.tenantId,
        gateId: null,
        kind: 'audit',
        recordedAt: occurredAt,
        rowId: id,
      });
      return id;
    },
    find: async (tx: DbExecutor, tenantId: string, id: string) => {
      const row = await repository.find(tx, tenantId, id);
      return row && opened(tenantId, row);
    },
    /** Opens the details of rows read by another query (the audit viewer's list and export). */
    openAll: openedAll,
    hasDetail: (tx: DbExecutor, tenantId: string, key: string, value: string, since: Date) =>
      repository.hasDetail(tx, tenantId, key, value, since),
    /** Issue 23's exports of one kind of event (watchlist hits), a batch at a time. */
    countAction: (tx: DbExecutor, tenantId: string, range: AuditActionRange) =>
      repository.countAction(tx, tenantId, range),
    listActionBatch: async (
      tx: DbExecutor,
      tenantId: string,
      range: AuditActionRange,
      limit: number,
      after?: { occurredAt: Date; id: string },
    ) => openedAll(tenantId, await repository.listActionBatch(tx, tenantId, range, limit, after)),
    listAbout: async (tx: DbExecutor, tenantId: string, targetIds: readonly string[]) =>
      openedAll(tenantId, await repository.listAbout(tx, tenantId, targetIds)),
  };
}
