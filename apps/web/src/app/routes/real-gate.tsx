import { roleMay } from '@boomgate/contracts/roles';

import { useSession } from '@/features/auth/api/get-session';
import { RealGate } from '@/features/real-gate/components/real-gate';

export default function RealGateRoute() {
  const { user } = useSession();
  // Issue 21: the PIN override is offered only to the roles its route allows (not super_admin).
  return <RealGate canPinOverride={roleMay(user.role, 'pinOverrideEntries')} />;
}
