import { WeighbridgeStation } from '@/features/weighbridge/components/weighbridge-station';

export default function WeighbridgeRoute() {
  return <WeighbridgeStation />;
}
