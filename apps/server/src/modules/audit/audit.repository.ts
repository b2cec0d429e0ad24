import { type DbExecutor } from '@/platform/db';
import { newId } from '@/platform/ids';

import { auditEvents } from './audit.table';

export type AuditEventInput = {
  tenantId: string;
  actorUserId: string | null;
  action: string;
  targetType?: string;
  targetId?: string;
  ip?: string;
  details?: Record<string, unknown>;
};

export function createAuditRepository() {
  return {
    async insert(tx: DbExecutor, event: AuditEventInput, occurredAt: Date) {
      await tx.insert(auditEvents).values({ id: newId(), occurredAt, ...event });
    },
  };
}
