import { TruckList } from '@/features/truck-list/components/truck-list';

export default function TruckListRoute() {
  return <TruckList />;
}
