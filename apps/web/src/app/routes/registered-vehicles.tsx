import { PagePlaceholder } from '@/components/ui/page-placeholder';

export default function RegisteredVehiclesRoute() {
  return (
    <PagePlaceholder
      title="Registered Vehicles"
      description="Vehicles approved for entry, with their drivers."
    />
  );
}
