import { RoleGate } from '@/features/auth/components/role-gate';
import { ReportsPage } from '@/features/reports/components/reports-page';

export default function ReportsRoute() {
  return (
    <RoleGate
      action="viewReports"
      title="Reports"
      reason="Reports are for back office and administrators."
    >
      <ReportsPage />
    </RoleGate>
  );
}
