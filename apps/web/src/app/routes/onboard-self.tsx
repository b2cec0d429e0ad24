import { useLocation } from 'wouter';

import { paths } from '@/config/paths';
import { RoleGate } from '@/features/auth/components/role-gate';
import { SelfOnboarding } from '@/features/onboarding/components/self-onboarding';

export default function OnboardSelfRoute() {
  const [, navigate] = useLocation();
  return (
    <RoleGate
      action="onboardDrivers"
      title="Self Onboarding"
      reason="Only administrators and back office onboard drivers."
    >
      <SelfOnboarding backHref={paths.onboarding} onFinish={() => navigate(paths.home)} />
    </RoleGate>
  );
}
