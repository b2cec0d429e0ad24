import { paths } from '@/config/paths';
import { RegisteredVehicles } from '@/features/approved-vehicles/components/registered-vehicles';
import { useSession } from '@/features/auth/api/get-session';

export default function RegisteredVehiclesRoute() {
  const { user } = useSession();
  // Separation of duties: back office and admins confirm or reject a security guard's changes.
  return (
    <RegisteredVehicles
      preArrivalHref={paths.preArrival()}
      canDecide={user.role !== 'security_guard'}
    />
  );
}
