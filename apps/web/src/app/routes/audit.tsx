import { AuditLog } from '@/features/audit/components/audit-log';
import { RoleGate } from '@/features/auth/components/role-gate';
import { useTranslation } from '@/lib/i18n';

export default function AuditRoute() {
  const { t } = useTranslation('audit');
  return (
    <RoleGate action="viewAuditLog" title={t('title')} reason={t('gateReason')}>
      <AuditLog />
    </RoleGate>
  );
}
