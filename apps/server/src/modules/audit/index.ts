/**
 * Audit: an append-only trail of sign-ins, user changes, biometric and document access, and the
 * viewer over it (issue 23). Owns: audit_events (the API role may insert and read, never change
 * or delete).
 */
import type { Database } from '@/platform/db';

import type { AuditService } from './audit.service';
import type { ActorNameSql } from './audit-events.repository';
import { auditEventsRoutes } from './audit-events.routes';
import { createAuditEventsService } from './audit-events.service';

export { createAuditService, type AuditService } from './audit.service';

/** The audit log viewer (issue 23): reading and exporting the trail, itself audited. */
export function createAuditEventsModule(deps: {
  database: Pick<Database, 'withTenant'>;
  audit: AuditService;
  actorNameSql: ActorNameSql;
}) {
  const service = createAuditEventsService(deps);
  return { service, routes: auditEventsRoutes(service) };
}
export type { AuditEventInput } from './audit.repository';
/** Issue 26: seals the personal values of rows written before the audit key (keys.seal-stored-data). */
export { auditSealedTable } from './audit-sealing';
export { PERSONAL_KEYS } from './audit-details';
