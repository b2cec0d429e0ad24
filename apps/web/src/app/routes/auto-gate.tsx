import { AutoGate } from '@/features/auto-gate/components/auto-gate';

export default function AutoGateRoute() {
  return <AutoGate />;
}
