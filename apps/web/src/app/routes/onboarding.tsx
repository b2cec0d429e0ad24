import { paths } from '@/config/paths';
import { RoleGate } from '@/features/auth/components/role-gate';
import { OnboardingChooser } from '@/features/onboarding/components/onboarding-chooser';
import { useTranslation } from '@/lib/i18n';

export default function OnboardingRoute() {
  // The role gate's title is the screen's own; its reason is shared by the routes.
  const { t } = useTranslation();
  return (
    <RoleGate
      action="onboardDrivers"
      title={t('onboarding:chooser.title')}
      reason={t('shared:gates.onboarding')}
    >
      <OnboardingChooser
        companyHref={paths.onboardCompany}
        selfHref={paths.onboardSelf}
        securityHref={paths.onboardSecurity}
      />
    </RoleGate>
  );
}
