import { paths } from '@/config/paths';
import { RoleGate } from '@/features/auth/components/role-gate';
import { CompanyOnboarding } from '@/features/onboarding/components/company-onboarding';
import { useTranslation } from '@/lib/i18n';

export default function OnboardCompanyRoute() {
  // The role gate's title is the screen's own; its reason is shared by the routes.
  const { t } = useTranslation();
  return (
    <RoleGate
      action="onboardDrivers"
      title={t('onboarding:company.title')}
      reason={t('shared:gates.onboarding')}
    >
      <CompanyOnboarding backHref={paths.onboarding} />
    </RoleGate>
  );
}
