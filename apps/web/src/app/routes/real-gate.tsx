import { PagePlaceholder } from '@/components/ui/page-placeholder';

export default function RealGateRoute() {
  return (
    <PagePlaceholder
      title="Real Gate Entry"
      description="Nine-step verification of vehicle, driver and documents before granting entry."
    />
  );
}
