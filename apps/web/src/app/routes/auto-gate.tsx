import { roleMay } from '@boomgate/contracts/roles';

import { useSession } from '@/features/auth/api/get-session';
import { AutoGate } from '@/features/auto-gate/components/auto-gate';

export default function AutoGateRoute() {
  const { user } = useSession();
  // Issue 21: the PIN override is offered only to the roles its route allows (not super_admin).
  return <AutoGate canPinOverride={roleMay(user.role, 'pinOverrideEntries')} />;
}
