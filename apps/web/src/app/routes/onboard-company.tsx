import { paths } from '@/config/paths';
import { RoleGate } from '@/features/auth/components/role-gate';
import { CompanyOnboarding } from '@/features/onboarding/components/company-onboarding';

export default function OnboardCompanyRoute() {
  return (
    <RoleGate
      action="onboardDrivers"
      title="Company Onboarding"
      reason="Only administrators and back office onboard drivers."
    >
      <CompanyOnboarding backHref={paths.onboarding} />
    </RoleGate>
  );
}
