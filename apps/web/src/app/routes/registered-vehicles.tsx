import { paths } from '@/config/paths';
import { RegisteredVehicles } from '@/features/approved-vehicles/components/registered-vehicles';

export default function RegisteredVehiclesRoute() {
  return <RegisteredVehicles preArrivalHref={paths.preArrival()} />;
}
