import { useSearchParams } from 'wouter';

import { paths } from '@/config/paths';
import { PreArrivalRegistration } from '@/features/approved-vehicles/components/pre-arrival-registration';

export default function PreArrivalRoute() {
  // Auto Gate sends a scanned plate along as ?plate=… (spec §2).
  const [searchParams] = useSearchParams();
  const plate = searchParams.get('plate')?.trim() || null;

  return (
    <PreArrivalRegistration
      key={plate ?? ''}
      initialPlate={plate}
      pathAfterRegistration={paths.preArrival()}
      registeredVehiclesHref={paths.registeredVehicles}
    />
  );
}
