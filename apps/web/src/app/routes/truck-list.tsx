import { PagePlaceholder } from '@/components/ui/page-placeholder';

export default function TruckListRoute() {
  return (
    <PagePlaceholder title="Truck List" description="Trucks read by the number-plate camera." />
  );
}
