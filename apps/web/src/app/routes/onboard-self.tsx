import { useLocation } from 'wouter';

import { paths } from '@/config/paths';
import { RoleGate } from '@/features/auth/components/role-gate';
import { SelfOnboarding } from '@/features/onboarding/components/self-onboarding';
import { useTranslation } from '@/lib/i18n';

export default function OnboardSelfRoute() {
  // The role gate's title is the screen's own; its reason is shared by the routes.
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  return (
    <RoleGate
      action="onboardDrivers"
      title={t('onboarding:self.title')}
      reason={t('shared:gates.onboarding')}
    >
      <SelfOnboarding backHref={paths.onboarding} onFinish={() => navigate(paths.home)} />
    </RoleGate>
  );
}
