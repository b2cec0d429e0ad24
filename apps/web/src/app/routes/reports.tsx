import { useSession } from '@/features/auth/api/get-session';
import { RoleGate } from '@/features/auth/components/role-gate';
import { ReportsPage } from '@/features/reports/components/reports-page';
import { roleMay } from '@boomgate/contracts/roles';

export default function ReportsRoute() {
  const { user } = useSession();
  return (
    <RoleGate
      action="viewReports"
      title="Reports"
      reason="Reports are for back office and administrators."
    >
      <ReportsPage canSchedule={roleMay(user.role, 'scheduleReports')} />
    </RoleGate>
  );
}
