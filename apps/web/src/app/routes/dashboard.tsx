import { SystemDashboard } from '@/features/dashboard/components/system-dashboard';

export default function DashboardRoute() {
  return <SystemDashboard />;
}
