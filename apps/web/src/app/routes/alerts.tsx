import { RoleGate } from '@/features/auth/components/role-gate';
import { AlertsPage } from '@/features/alerts/components/alerts-page';

export default function AlertsRoute() {
  return (
    <RoleGate
      action="viewAlerts"
      title="Alerts"
      reason="Only administrators and back office see alerts."
    >
      <AlertsPage />
    </RoleGate>
  );
}
