/**
 * Audit: an append-only trail of sign-ins, user changes and (later) biometric and document
 * access. Owns: audit_events (the API role may insert and read, never change or delete).
 */
export { createAuditService, type AuditService } from './audit.service';
export type { AuditEventInput } from './audit.repository';
