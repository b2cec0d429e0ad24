import { RollCall } from '@/features/on-site/components/roll-call';

export default function RollCallRoute() {
  return <RollCall />;
}
