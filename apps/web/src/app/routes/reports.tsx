import { useSession } from '@/features/auth/api/get-session';
import { RoleGate } from '@/features/auth/components/role-gate';
import { ReportsPage } from '@/features/reports/components/reports-page';
import { useTranslation } from '@/lib/i18n';
import { roleMay } from '@boomgate/contracts/roles';

export default function ReportsRoute() {
  const { user } = useSession();
  // The role gate's title is the screen's own; its reason is shared by the routes.
  const { t } = useTranslation();
  return (
    <RoleGate action="viewReports" title={t('reports:title')} reason={t('shared:gates.reports')}>
      <ReportsPage canSchedule={roleMay(user.role, 'scheduleReports')} />
    </RoleGate>
  );
}
