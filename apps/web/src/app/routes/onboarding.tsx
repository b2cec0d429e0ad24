import { paths } from '@/config/paths';
import { RoleGate } from '@/features/auth/components/role-gate';
import { OnboardingChooser } from '@/features/onboarding/components/onboarding-chooser';

export default function OnboardingRoute() {
  return (
    <RoleGate
      action="onboardDrivers"
      title="Onboarding"
      reason="Only administrators and back office onboard drivers."
    >
      <OnboardingChooser
        companyHref={paths.onboardCompany}
        selfHref={paths.onboardSelf}
        securityHref={paths.onboardSecurity}
      />
    </RoleGate>
  );
}
