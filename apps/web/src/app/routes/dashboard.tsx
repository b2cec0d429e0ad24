import { PagePlaceholder } from '@/components/ui/page-placeholder';

export default function DashboardRoute() {
  return (
    <PagePlaceholder
      title="System Dashboard"
      description="Entry statistics and recent gate activity."
    />
  );
}
