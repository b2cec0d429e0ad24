import { AuditLog } from '@/features/audit/components/audit-log';
import { RoleGate } from '@/features/auth/components/role-gate';

export default function AuditRoute() {
  return (
    <RoleGate
      action="viewAuditLog"
      title="Audit Log"
      reason="Only tenant and super administrators read the audit log."
    >
      <AuditLog />
    </RoleGate>
  );
}
