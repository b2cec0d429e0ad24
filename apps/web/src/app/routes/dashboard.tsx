import { roleMay } from '@boomgate/contracts/roles';

import { useSession } from '@/features/auth/api/get-session';
import { SystemDashboard } from '@/features/dashboard/components/system-dashboard';

export default function DashboardRoute() {
  const { user } = useSession();
  // Issue 21: supervisors override refused entries from the recent activity.
  return (
    <SystemDashboard
      canOverride={roleMay(user.role, 'overrideEntries')}
      showArrivals={roleMay(user.role, 'viewReports')}
    />
  );
}
