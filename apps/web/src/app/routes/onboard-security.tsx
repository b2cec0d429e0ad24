import { roleMay } from '@boomgate/contracts/roles';

import { paths } from '@/config/paths';
import { useSession } from '@/features/auth/api/get-session';
import { RoleGate } from '@/features/auth/components/role-gate';
import { SecurityOnboarding } from '@/features/onboarding/components/security-onboarding';

export default function OnboardSecurityRoute() {
  const { user } = useSession();
  return (
    <RoleGate
      action="onboardDrivers"
      title="Security Onboarding"
      reason="Only administrators and back office onboard drivers."
    >
      <SecurityOnboarding
        backHref={paths.onboarding}
        workflowHref={paths.workflow}
        // Creating the guard's account is User Management's: linked only for those who may.
        usersHref={roleMay(user.role, 'manageUsers') ? paths.users : undefined}
        signInUrl={new URL(paths.login, window.location.origin).toString()}
      />
    </RoleGate>
  );
}
