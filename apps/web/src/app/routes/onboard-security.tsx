import { paths } from '@/config/paths';
import { SecurityOnboarding } from '@/features/onboarding/components/security-onboarding';

export default function OnboardSecurityRoute() {
  return (
    <SecurityOnboarding
      backHref={paths.onboarding}
      workflowHref={paths.workflow}
      usersHref={paths.users}
      signInUrl={new URL(paths.login, window.location.origin).toString()}
    />
  );
}
