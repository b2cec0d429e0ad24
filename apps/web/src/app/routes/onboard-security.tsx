import { roleMay } from '@boomgate/contracts/roles';

import { paths } from '@/config/paths';
import { useSession } from '@/features/auth/api/get-session';
import { RoleGate } from '@/features/auth/components/role-gate';
import { SecurityOnboarding } from '@/features/onboarding/components/security-onboarding';
import { useTranslation } from '@/lib/i18n';

export default function OnboardSecurityRoute() {
  // The role gate's title is the screen's own; its reason is shared by the routes.
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <RoleGate
      action="onboardDrivers"
      title={t('onboarding:security.title')}
      reason={t('shared:gates.onboarding')}
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
