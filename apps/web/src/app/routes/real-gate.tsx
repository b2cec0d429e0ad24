import { RealGate } from '@/features/real-gate/components/real-gate';

export default function RealGateRoute() {
  return <RealGate />;
}
